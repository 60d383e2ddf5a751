import Foundation
import TasksCommon
import Testing

@testable import Imaging

/// The report's thumbnails: upright, at most 256 px a side, never enlarged, box-filtered, WebP
/// under the target size; read back with the project's WebP decoder.
@Suite("Thumbnail")
struct ThumbnailTests {
    /// A `width` x `height` RGB image: the left half red, the right half a 1-pixel black and
    /// white checkerboard (which averages to mid grey when downscaled).
    static func picture(width: Int, height: Int) throws -> PixelImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                if x < width / 2 {
                    bytes[offset] = 220
                } else {
                    let value: UInt8 = (x + y) % 2 == 0 ? 255 : 0
                    (bytes[offset], bytes[offset + 1], bytes[offset + 2]) = (value, value, value)
                }
            }
        }
        return try PixelImage(bytes: bytes, width: width, height: height, bytesPerRow: nil, format: .rgb8)
    }

    struct SizeCase: Sendable, CustomTestStringConvertible {
        let width, height: Int
        let orientation: ImageOrientation
        let expected: (width: Int, height: Int)
        var testDescription: String { "\(width)x\(height) \(orientation) -> \(expected.width)x\(expected.height)" }
    }

    @Test(arguments: [
        SizeCase(width: 1000, height: 500, orientation: .up, expected: (256, 128)),
        SizeCase(width: 1000, height: 500, orientation: .right, expected: (128, 256)),
        SizeCase(width: 1000, height: 500, orientation: .leftMirrored, expected: (128, 256)),
        SizeCase(width: 120, height: 80, orientation: .up, expected: (120, 80)),
        SizeCase(width: 3000, height: 7, orientation: .up, expected: (256, 1)),
    ])
    func sizeIsUprightAndAtMost256(_ size: SizeCase) throws {
        let thumbnail = try Thumbnail(try Self.picture(width: size.width, height: size.height), orientation: size.orientation)
        #expect(thumbnail.width == size.expected.width && thumbnail.height == size.expected.height)
        let decoded = try ImageDecoder.decode(Data(thumbnail.webp), source: "thumbnail")
        #expect(decoded.pixels.width == thumbnail.width && decoded.pixels.height == thumbnail.height)
        #expect(thumbnail.webp.count <= Thumbnail.defaultTargetByteCount)
    }

    /// The checkerboard half averages to grey (a point sampler would give black or white
    /// stripes); the red half stays red.
    @Test func boxFilterAveragesFineDetail() throws {
        let thumbnail = try Thumbnail(try Self.picture(width: 1024, height: 512), orientation: .up)
        let decoded = try ImageDecoder.decode(Data(thumbnail.webp), source: "thumbnail").pixels
        let grey = decoded.rgba(x: decoded.width * 3 / 4, y: decoded.height / 2)
        #expect(abs(Int(grey.red) - 128) < 30 && abs(Int(grey.green) - 128) < 30, "\(grey)")
        let red = decoded.rgba(x: decoded.width / 4, y: decoded.height / 2)
        #expect(red.red > 180 && red.green < 40, "\(red)")
    }

    @Test func boxFilterIsTheBlockMean() {
        // 2x1 thumbnail from 4x2 samples (box 2): each output pixel averages a 2x2 block.
        let samples: [UInt8] = [
            0, 0, 0, 10, 10, 10, 100, 0, 0, 200, 0, 0,
            20, 20, 20, 30, 30, 30, 0, 0, 0, 100, 0, 0,
        ]
        #expect(Thumbnail.boxFiltered(samples, width: 2, height: 1, box: 2) == [15, 15, 15, 100, 0, 0])
    }
}
