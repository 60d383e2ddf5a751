import Foundation
import TestSupport
import Testing
import VisionTasks

/// A raw buffer must be what its description says: without `bytesPerRow` exactly the packed
/// pixels (so RGBA bytes described as RGB8 are an error, not a garbage picture); with it, at
/// least `bytesPerRow · (height − 1) + width · bytesPerPixel`, the last row's padding optional.
@Suite struct PixelBufferLengthTests {
    @Test func rgbaBytesDescribedAsRGB8AreRefusedNamingBothSizes() {
        let rgba = Data(repeating: 7, count: 4 * 4 * 4)
        let error = #expect(throws: TasksError.self) { try MPImage(pixels: rgba, width: 4, height: 4, format: .rgb8) }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message == "Pixel buffer has 64 bytes, but 4x4 rgb8 without bytesPerRow is exactly 48 bytes; "
                + "give bytesPerRow for padded rows, or check the format.")
    }

    @Test(arguments: [
        (PixelFormat.rgba8, 4 * 3 * 2), (.gray8, 3 * 2), (.i420, 3 * 2 + 2 * 2 * 1), (.nv12, 3 * 2 + 4 * 1),
        (.yuyv, 4 * 2 * 2),
    ])
    func exactLengthWithoutStride(format: PixelFormat, byteCount: Int) throws {
        #expect(throws: Never.self) { try MPImage(pixels: Data(count: byteCount), width: 3, height: 2, format: format) }
        let longer = #expect(throws: TasksError.self) {
            try MPImage(pixels: Data(count: byteCount + 1), width: 3, height: 2, format: format)
        }
        #expect(longer?.message.contains("has \(byteCount + 1) bytes") == true)
        #expect(longer?.message.contains("is exactly \(byteCount) bytes") == true)
        #expect(throws: TasksError.self) { try MPImage(pixels: Data(count: byteCount - 1), width: 3, height: 2, format: format) }
    }

    @Test func withStrideTheLastRowMayOmitItsPaddingAndExtraBytesAreAllowed() throws {
        // 3x2 RGB8 with 16-byte rows: 16 + 9 = 25 bytes at least.
        #expect(throws: Never.self) { try MPImage(pixels: Data(count: 25), width: 3, height: 2, bytesPerRow: 16, format: .rgb8) }
        #expect(throws: Never.self) { try MPImage(pixels: Data(count: 40), width: 3, height: 2, bytesPerRow: 16, format: .rgb8) }
        let short = #expect(throws: TasksError.self) {
            try MPImage(pixels: Data(count: 24), width: 3, height: 2, bytesPerRow: 16, format: .rgb8)
        }
        #expect(short?.message.contains("24 bytes") == true && short?.message.contains("needs 25") == true)
    }
}
