import CImageCodecs
import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

/// The size limits raw buffers share with the decoders, and PNG's per-side limit.
@Suite("Size limits")
struct SizeLimitTests {
    static let side = ImageDecoder.maxSideLength

    @Test("the limits are the documented ones")
    func documented() {
        #expect(ImageDecoder.maxSideLength == 67_108_864)
        #expect(ImageDecoder.maxPixelCount == 100_000_000)
        #expect(PNGCodec.maxSideLength == 1_000_000)
    }

    /// Sizes over a limit, and the fragments the message must hold.
    static let oversized: [(width: Int, height: Int, fragments: [String])] = [
        (side + 1, 1, ["Invalid image size 67108865x1", "limited to 67108864 pixels"]),
        (1, side + 1, ["Invalid image size 1x67108865", "limited to 67108864 pixels"]),
        (10_001, 10_000, ["Invalid image size 10001x10000", "more than the limit of 100000000 pixels"]),
        (Int.max, 2, ["Invalid image size \(Int.max)x2", "limited to 67108864 pixels"]),
        (2, Int.max, ["Invalid image size 2x\(Int.max)", "limited to 67108864 pixels"]),
    ]

    /// Every raw-buffer entry point refuses the size before looking at the bytes (an empty buffer).
    @Test(
        "raw buffers over the decoders' limits are refused, naming the size",
        arguments: 0..<oversized.count, [PixelFormat.rgba8, .gray8, .nv12, .i420, .yuyv])
    func oversizedRawBuffers(index: Int, format: PixelFormat) {
        let (width, height, fragments) = Self.oversized[index]
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(bytes: [], width: width, height: height, bytesPerRow: nil, format: format)
        }
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(copying: Data(), width: width, height: height, bytesPerRow: nil, format: format)
        }
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(
                copying: UnsafeRawBufferPointer(start: nil, count: 0), width: width, height: height,
                bytesPerRow: 1 << 40, format: format)
        }
        let planes = format.planeNames.map { _ in PixelPlane(bytes: Data(), bytesPerRow: 1) }
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(copying: planes, width: width, height: height, format: format)
        }
    }

    /// At the largest side, every position up to the far edge fits 32-bit 1/32-pixel
    /// arithmetic, so the tensor takes exactly the pixels it lands on (a 64 MiB gray row). One
    /// pixel more and the far edge (x = width, rotated by 180 degrees) would saturate to
    /// 2^31 - 1 and blend in its neighbour.
    @Test("an image of the largest side is sampled exactly, up to its far edge")
    func largestSideSamplesExactly() throws {
        let width = Self.side
        var bytes = [UInt8](repeating: 0, count: width)
        // Tensor column u of 4 samples x = u * width / 4 (no half-pixel offset); mirrored,
        // x = width - 1 - u * width / 4; rotated by 180 degrees, column 0 samples x = width,
        // clamped to the last pixel.
        let marks = [
            0: 10, width / 4: 20, width / 2: 30, 3 * width / 4: 40, width - 1: 50,
            width / 4 - 1: 21, width / 2 - 1: 31, 3 * width / 4 - 1: 41,
        ]
        for (x, value) in marks { bytes[x] = UInt8(value) }
        let image = try PixelImage(bytes: bytes, width: width, height: 1, bytesPerRow: nil, format: .gray8)
        let upright = try tensor(image, width: 4, height: 1)
        let mirrored = try tensor(image, width: 4, height: 1, mirrored: true)
        let rotated = try tensor(image, width: 4, height: 1, rotationDegrees: 180)
        #expect(upright == [10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40])
        #expect(mirrored == [50, 50, 50, 41, 41, 41, 31, 31, 31, 21, 21, 21])
        // (The other rotated columns land a fraction off the marks: MediaPipe's single-precision
        // corners and matrix solve, reproduced here, lose that much at this scale.)
        #expect(rotated.prefix(3) == [50, 50, 50])
    }

    /// The tester's case: a 1x100000000 PNG (inside the pixel limit) failed with libpng's
    /// "Invalid IHDR data".
    @Test(
        "a PNG side over libpng's limit is refused, naming the size and the limit",
        arguments: [
            (1, 100_000_000), (100_000_000, 1), (1_000_001, 1), (1, 1_000_001),
        ] as [(UInt32, UInt32)])
    func pngSideLimit(width: UInt32, height: UInt32) {
        expectTasksError(
            .invalidArgumentError,
            containing: [
                "tall.png: The image is too large: \(width)x\(height) pixels",
                "PNG width and height are limited to 1000000 pixels",
            ]
        ) {
            _ = try ImageDecoder.decode(ImageBytes.pngHeader(width: width, height: height), source: "tall.png")
        }
    }

    @Test("a PNG side at libpng's limit passes the size checks")
    func pngSideAtLimit() {
        // The bogus image data then fails, but not for its size.
        do {
            _ = try ImageDecoder.decode(ImageBytes.pngHeader(width: 1_000_000, height: 1), source: "wide.png")
            Issue.record("the bogus image data decoded")
        } catch {
            #expect(error.code == .invalidArgumentError)
            #expect(!error.message.contains("too large") && !error.message.contains("IHDR"), "\(error.message)")
        }
    }

    /// Should the IHDR check be bypassed, libpng's own refusal says why.
    @Test("libpng's refusal of a side names its warning")
    func libpngWarningInMessage() throws {
        var info = cic_image_info()
        let data = [UInt8](ImageBytes.pngHeader(width: 1, height: 2_000_000))
        let failure = data.withUnsafeBufferPointer { bytes in
            callCodec { cic_png_read_info(bytes.baseAddress, bytes.count, &info, $0, $1) }
        }
        let message = try #require(failure?.message)
        #expect(message.contains("Invalid IHDR data") && message.contains("exceeds user limit"), "\(message)")
    }
}
