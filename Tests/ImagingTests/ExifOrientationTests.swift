import Foundation
import TestSupport
import Testing

@testable import Imaging

@Suite("EXIF orientation")
struct ExifOrientationTests {
    /// The fixtures with an EXIF block (Pillow 13 writes big-endian "MM"), Orientation 1.
    static let containers: [(name: String, base64: String)] = [
        ("JPEG APP1", Fixtures.jpegExif), ("PNG eXIf", Fixtures.pngExif), ("WebP EXIF", Fixtures.webpExif),
    ]

    @Test("each EXIF value 1...8 in each container", arguments: 0..<containers.count, 1...8)
    func patchedValues(container: Int, exif: Int) throws {
        let data = ImageBytes.settingOrientation(fixture(Self.containers[container].base64), to: UInt16(exif))
        let decoded = try decode(data, Self.containers[container].name)
        #expect(decoded.exifOrientation == ImageOrientation(exifOrientation: exif), "\(Self.containers[container].name)")
        // The pixels are never rotated.
        #expect(decoded.pixels.width == 7 && decoded.pixels.height == 5)
    }

    @Test("an invalid EXIF value is .up", arguments: [0, 9, 0x0106])
    func invalidValue(value: Int) throws {
        let data = ImageBytes.settingOrientation(fixture(Fixtures.jpegExif), to: UInt16(value))
        #expect(try decode(data).exifOrientation == .up)
    }

    @Test("both byte orders in JPEG and PNG, after another tag", arguments: [false, true], 1...8)
    func byteOrders(bigEndian: Bool, exif: Int) throws {
        let tiff = ImageBytes.tiff(orientation: UInt16(exif), bigEndian: bigEndian)
        let jpeg = ImageBytes.jpeg(fixture(Fixtures.jpegRGB), insertingExif: tiff)
        #expect(try decode(jpeg, "jpeg").exifOrientation == ImageOrientation(exifOrientation: exif))
        let png = ImageBytes.png(fixture(Fixtures.pngRGB8), insertingExif: tiff)
        #expect(try decode(png, "png").exifOrientation == ImageOrientation(exifOrientation: exif))
    }

    @Test("no EXIF is .up")
    func absent() throws {
        for base64 in [Fixtures.jpegRGB, Fixtures.pngRGB8, Fixtures.webpLosslessRGB] {
            #expect(try decode(fixture(base64)).exifOrientation == .up)
        }
    }

    @Test(
        "damaged TIFF blocks give .up without reading out of bounds",
        arguments: [
            [UInt8](),
            [0x49, 0x49, 0x2A, 0x00],
            [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0x7F],  // IFD offset past the end
            [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x05, 0x01, 0x12],  // 5 entries, 1 partial
            [0x49, 0x49, 0x2B, 0x00, 0x08, 0x00, 0x00, 0x00],  // BigTIFF magic
            // ASCII type
            [
                0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0x01, 0x12, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00,
                0x06, 0, 0,
            ],
        ])
    func damaged(tiff: [UInt8]) throws {
        let jpeg = ImageBytes.jpeg(fixture(Fixtures.jpegRGB), insertingExif: tiff)
        #expect(try decode(jpeg).exifOrientation == .up)
        #expect(tiff.withUnsafeBufferPointer { ExifReader.orientation(inTIFF: $0) } == nil)
    }

    @Test("a LONG-typed Orientation is accepted")
    func longType() {
        let tiff: [UInt8] = [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
            0x12, 0x01, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0, 0, 0, 0,
        ]
        #expect(tiff.withUnsafeBufferPointer { ExifReader.orientation(inTIFF: $0) } == .right)
    }

    @Test(
        "cat.jpg's EXIF says up; patched, it says each value",
        .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)), arguments: 1...8)
    func catJPEG(exif: Int) throws {
        let data = try TestData.bytes("images/cat.jpg")
        #expect(try ImageDecoder.decode(data, source: "cat.jpg").exifOrientation == .up)
        let patched = ImageBytes.settingOrientation(data, to: UInt16(exif))
        #expect(try ImageDecoder.decode(patched, source: "cat.jpg").exifOrientation == ImageOrientation(exifOrientation: exif))
    }
}
