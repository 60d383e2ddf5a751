import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

@Suite("PixelImage")
struct PixelImageTests {
    @Test("bytes per pixel")
    func bytesPerPixel() {
        #expect(PixelFormat.rgba8.bytesPerPixel == 4)
        #expect(PixelFormat.bgra8.bytesPerPixel == 4)
        #expect(PixelFormat.rgb8.bytesPerPixel == 3)
        #expect(PixelFormat.gray8.bytesPerPixel == 1)
    }

    @Test(
        "invalid geometry is rejected with the values",
        arguments: [
            (0, 5, 12, 100, PixelFormat.rgb8, ["0x5"]),
            (4, 0, 12, 100, PixelFormat.rgb8, ["4x0"]),
            (-3, 5, 12, 100, PixelFormat.rgb8, ["-3x5"]),
            (4, 5, 11, 100, PixelFormat.rgb8, ["bytesPerRow 11", "width 4"]),
            (4, 5, 15, 70, PixelFormat.bgra8, ["bytesPerRow 15", "4 bytes per pixel"]),
            (4, 5, 12, 59, PixelFormat.rgb8, ["59 bytes", "needs 60"]),
            (333, 2, 1024, 1024 + 998, PixelFormat.rgb8, ["2022 bytes", "needs 2023"]),
            (4, 3, Int.max / 2, 10, PixelFormat.gray8, ["needs more than Int.max"]),
            (Int.max / 2, 3, Int.max / 2, 10, PixelFormat.gray8, ["\(Int.max / 2)x3", "limited to 67108864 pixels"]),
        ])
    func invalidGeometry(width: Int, height: Int, bytesPerRow: Int, byteCount: Int, format: PixelFormat, fragments: [String]) {
        let bytes = [UInt8](repeating: 0, count: byteCount)
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(bytes: bytes, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        }
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try bytes.withUnsafeBytes {
                try PixelImage(copying: $0, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
            }
        }
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(copying: Data(bytes), width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        }
    }

    @Test("padded rows: the last row may omit its padding; only the covered bytes are copied")
    func paddedRows() throws {
        // width 333 RGB = 999 bytes per row, stride 1024: 1024 + 999 bytes are enough.
        var bytes = [UInt8](repeating: 7, count: 1024 + 999 + 50)
        bytes[1024 + 998] = 42
        let image = try bytes.withUnsafeBytes {
            try PixelImage(copying: $0, width: 333, height: 2, bytesPerRow: 1024, format: .rgb8)
        }
        #expect(image.bytes.count == 1024 + 999)
        #expect(image.rgba(x: 332, y: 1) == (7, 7, 42, 255))
    }

    @Test("rgba(x:y:) reads every format")
    func pixelAccess() throws {
        let rgba = try PixelImage(bytes: [1, 2, 3, 4, 5, 6, 7, 8], width: 2, height: 1, bytesPerRow: 8, format: .rgba8)
        #expect(rgba.rgba(x: 1, y: 0) == (5, 6, 7, 8))
        let bgra = try PixelImage(bytes: [1, 2, 3, 4], width: 1, height: 1, bytesPerRow: 4, format: .bgra8)
        #expect(bgra.rgba(x: 0, y: 0) == (3, 2, 1, 4))
        let rgb = try PixelImage(bytes: [1, 2, 3, 0, 9, 8, 7], width: 1, height: 2, bytesPerRow: 4, format: .rgb8)
        #expect(rgb.rgba(x: 0, y: 1) == (9, 8, 7, 255))
        let gray = try PixelImage(bytes: [200], width: 1, height: 1, bytesPerRow: 1, format: .gray8)
        #expect(gray.rgba(x: 0, y: 0) == (200, 200, 200, 255))
    }
}
