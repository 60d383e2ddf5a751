import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

/// The synthetic 7x5 pictures the lossless fixtures encode (the same formulas as
/// Tests/Reference/imaging/make_fixtures.py).
enum TestPicture {
    static let width = 7, height = 5

    static func rgba(_ x: Int, _ y: Int) -> [UInt8] {
        [
            UInt8((x * 53 + y * 31) & 255), UInt8((x * 17 + y * 71 + 40) & 255),
            UInt8((x * 29 ^ y * 43) & 255), UInt8(1 + (x * 61 + y * 13 + 7) % 255),
        ]
    }

    static func gray(_ x: Int, _ y: Int) -> UInt8 { UInt8((x * 37 + y * 19) & 255) }

    static func gray16(_ x: Int, _ y: Int) -> Int { (x * 7919 + y * 104729 + 12345) & 0xFFFF }

    static func rgb16(_ x: Int, _ y: Int) -> [Int] {
        [(x * 7919 + y * 104729) & 0xFFFF, (x * 3001 + y * 60013 + 999) & 0xFFFF, (x * 40503 ^ y * 2711) & 0xFFFF]
    }

    static let palette: [[UInt8]] = [
        [255, 0, 0, 255], [0, 128, 255, 200], [12, 34, 56, 0],
        [250, 250, 250, 128], [0, 0, 0, 255], [90, 180, 45, 77],
    ]

    static func paletteIndex(_ x: Int, _ y: Int) -> Int { (x + 2 * y) % 6 }

    /// The high byte of a 16-bit sample, what the decoder keeps (as stb_image and Pillow).
    static func highByte(_ value: Int) -> UInt8 { UInt8(value >> 8) }

    /// Packed bytes of a picture given per-pixel channels.
    static func bytes(_ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } }
    }
}

/// Decodes a base64 fixture.
func fixture(_ base64: String) -> Data {
    guard let data = Data(base64Encoded: base64) else { fatalError("bad base64 fixture") }
    return data
}

/// Decodes image bytes, failing the test on error.
func decode(_ data: Data, _ source: String = "fixture", sourceLocation: SourceLocation = #_sourceLocation) throws -> DecodedImage
{
    do {
        return try ImageDecoder.decode(data, source: source)
    } catch {
        Issue.record("decoding \(source) failed: \(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The pixels of an image as packed RGBA (gray repeated, missing alpha 255).
func rgbaBytes(_ image: PixelImage) -> [UInt8] {
    (0..<image.height).flatMap { y in
        (0..<image.width).flatMap { x -> [UInt8] in
            let pixel = image.rgba(x: x, y: y)
            return [pixel.red, pixel.green, pixel.blue, pixel.alpha]
        }
    }
}

/// A copy of `image` in another format and row stride (extra bytes per row are filled
/// with 0xAB); gray takes the red channel.
func converted(_ image: PixelImage, to format: PixelFormat, rowPadding: Int = 0) throws -> PixelImage {
    let bytesPerRow = image.width * format.bytesPerPixel + rowPadding
    var bytes: [UInt8] = []
    bytes.reserveCapacity(bytesPerRow * image.height)
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = image.rgba(x: x, y: y)
            switch format {
            case .rgba8: bytes += [p.red, p.green, p.blue, p.alpha]
            case .bgra8: bytes += [p.blue, p.green, p.red, p.alpha]
            case .rgb8: bytes += [p.red, p.green, p.blue]
            case .gray8: bytes += [p.red]
            case .nv12, .nv21, .i420, .i444, .yuyv:
                preconditionFailure("converted(_:to:) makes RGB and gray images; see YUVPicture")
            }
        }
        bytes += [UInt8](repeating: 0xAB, count: rowPadding)
    }
    return try PixelImage(bytes: bytes, width: image.width, height: image.height, bytesPerRow: bytesPerRow, format: format)
}

/// `image` flipped left to right, same format.
func flippedHorizontally(_ image: PixelImage) throws -> PixelImage {
    let bytesPerPixel = image.format.bytesPerPixel
    var bytes = [UInt8](repeating: 0, count: image.width * image.height * bytesPerPixel)
    for y in 0..<image.height {
        for x in 0..<image.width {
            let source = y * image.bytesPerRow + (image.width - 1 - x) * bytesPerPixel
            let target = (y * image.width + x) * bytesPerPixel
            for channel in 0..<bytesPerPixel { bytes[target + channel] = image.bytes[source + channel] }
        }
    }
    return try PixelImage(
        bytes: bytes, width: image.width, height: image.height,
        bytesPerRow: image.width * bytesPerPixel, format: image.format)
}

/// The whole image as a normalized rectangle.
let wholeImage = CGRect(x: 0, y: 0, width: 1, height: 1)

/// Runs the preprocessing into a fresh byte array.
func tensor(
    _ image: PixelImage, width: Int = 224, height: Int = 224, element: TensorElement = .uint8,
    regionOfInterest: CGRect = wholeImage, rotationDegrees: Int = 0,
    mirrored: Bool = false
) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: ImagePreprocessor.tensorByteCount(width: width, height: height, element: element))
    try bytes.withUnsafeMutableBytes { buffer in
        try ImagePreprocessor.preprocess(
            image, regionOfInterest: RegionOfInterest(regionOfInterest), rotationDegrees: rotationDegrees,
            mirrored: mirrored, into: buffer, width: width, height: height, element: element)
    }
    return bytes
}

/// Runs the orientation-driven preprocessing into a fresh byte array.
func tensor(
    _ image: PixelImage, orientation: ImageOrientation, width: Int = 224, height: Int = 224,
    regionOfInterest: CGRect = wholeImage
) throws -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: ImagePreprocessor.tensorByteCount(width: width, height: height, element: .uint8))
    try bytes.withUnsafeMutableBytes { buffer in
        try ImagePreprocessor.preprocess(
            image, regionOfInterest: RegionOfInterest(regionOfInterest), orientation: orientation,
            into: buffer, width: width, height: height, element: .uint8)
    }
    return bytes
}

/// Builds files byte by byte (PNG chunks with CRCs, JPEG/TIFF patches).
enum ImageBytes {
    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// One PNG chunk: length, type, data, CRC.
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian32(UInt32(data.count)) + typeBytes + data + bigEndian32(CRC32.checksum(typeBytes + data))
    }

    /// A PNG whose IHDR claims `width` x `height` 8-bit RGB, followed by a small (bogus)
    /// IDAT and IEND: enough for a header read, far from enough pixels.
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        let ihdr = bigEndian32(width) + bigEndian32(height) + [8, 2, 0, 0, 0]
        return Data(
            ImageContainer.pngSignature + pngChunk("IHDR", ihdr)
                + pngChunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) + pngChunk("IEND", []))
    }

    /// `jpeg` with the size in its first SOF0/SOF2 segment replaced.
    static func jpeg(_ jpeg: Data, withWidth width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](jpeg)
        var index = 2
        while index + 9 < bytes.count {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 || marker == 0xC2 {
                bytes[index + 5] = UInt8(height >> 8); bytes[index + 6] = UInt8(height & 0xFF)
                bytes[index + 7] = UInt8(width >> 8); bytes[index + 8] = UInt8(width & 0xFF)
                return Data(bytes)
            }
            index += 2 + length
        }
        fatalError("no SOF segment")
    }

    /// `file` with the value of its first EXIF Orientation entry (a SHORT, in either byte
    /// order) set to `value`.
    static func settingOrientation(_ file: Data, to value: UInt16) -> Data {
        var bytes = [UInt8](file)
        let little: [UInt8] = [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00]
        let big: [UInt8] = [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01]
        for (entry, isBig) in [(little, false), (big, true)] {
            if let start = (0...(bytes.count - entry.count - 2)).first(where: {
                bytes[$0..<($0 + entry.count)].elementsEqual(entry)
            }) {
                bytes[start + 8] = UInt8(isBig ? value >> 8 : value & 0xFF)
                bytes[start + 9] = UInt8(isBig ? value & 0xFF : value >> 8)
                return Data(bytes)
            }
        }
        fatalError("no Orientation entry")
    }

    /// A TIFF block whose IFD0 holds a Software tag, then Orientation = `orientation` as a SHORT.
    static func tiff(orientation: UInt16, bigEndian: Bool) -> [UInt8] {
        func u16(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: UInt32) -> [UInt8] {
            bigEndian
                ? u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF)) : u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16))
        }
        let header: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
        let software: [UInt8] = u16(0x0131) + u16(2) + u32(4) + [0x61, 0x62, 0x63, 0x00]
        let tag: [UInt8] = u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        return header + u16(2) + software + tag + u32(0)
    }

    /// `jpeg` with an APP1 Exif segment holding `tiff` inserted after SOI.
    static func jpeg(_ jpeg: Data, insertingExif tiff: [UInt8]) -> Data {
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        let bytes = [UInt8](jpeg)
        return Data(Array(bytes[0..<2]) + segment + Array(bytes[2...]))
    }

    /// `png` with an eXIf chunk holding `tiff` inserted after IHDR.
    static func png(_ png: Data, insertingExif tiff: [UInt8]) -> Data {
        let bytes = [UInt8](png)
        let afterIHDR = 8 + 8 + 13 + 4
        return Data(Array(bytes[0..<afterIHDR]) + pngChunk("eXIf", tiff) + Array(bytes[afterIHDR...]))
    }
}
