import Foundation
import TestSupport

@testable import Imaging

/// A YUV picture held as unpadded plane rows, with its own plane layout and addressing (written
/// out independently of `PlaneShape` and the pixel sources) and a reference RGB conversion.
struct YUVPicture {
    let format: PixelFormat
    let width: Int, height: Int
    /// `rows[plane][row]`: the bytes of each row without padding.
    let rows: [[[UInt8]]]

    /// The unpadded (bytes per row, rows) of each plane of a `width` x `height` picture.
    static func planeSizes(_ format: PixelFormat, width: Int, height: Int) -> [(rowBytes: Int, rows: Int)] {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch format {
        case .nv12, .nv21: return [(width, height), (2 * chromaWidth, chromaHeight)]
        case .i420: return [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        case .i444: return [(width, height), (width, height), (width, height)]
        case .yuyv: return [(4 * chromaWidth, height)]
        case .rgba8, .bgra8, .rgb8, .gray8: return [(width * format.bytesPerPixel, height)]
        }
    }

    /// A picture whose byte at `column` of `row` of `plane` is `byte(plane, row, column)`.
    init(_ format: PixelFormat, width: Int, height: Int, byte: (Int, Int, Int) -> UInt8) {
        self.format = format
        self.width = width
        self.height = height
        rows = Self.planeSizes(format, width: width, height: height).enumerated().map { plane, size in
            (0..<size.rows).map { row in (0..<size.rowBytes).map { byte(plane, row, $0) } }
        }
    }

    /// A picture of random bytes.
    init(_ format: PixelFormat, width: Int, height: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        self.init(format, width: width, height: height) { _, _, _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// The Y, U and V of pixel (`x`, `y`): the chroma sample covering it (no interpolation).
    func yuv(_ x: Int, _ y: Int) -> (y: UInt8, u: UInt8, v: UInt8) {
        switch format {
        case .nv12: return (rows[0][y][x], rows[1][y / 2][x / 2 * 2], rows[1][y / 2][x / 2 * 2 + 1])
        case .nv21: return (rows[0][y][x], rows[1][y / 2][x / 2 * 2 + 1], rows[1][y / 2][x / 2 * 2])
        case .i420: return (rows[0][y][x], rows[1][y / 2][x / 2], rows[2][y / 2][x / 2])
        case .i444: return (rows[0][y][x], rows[1][y][x], rows[2][y][x])
        case .yuyv: return (rows[0][y][x * 2], rows[0][y][x / 2 * 4 + 1], rows[0][y][x / 2 * 4 + 3])
        case .rgba8, .bgra8, .rgb8, .gray8: preconditionFailure("\(format) is not YUV")
        }
    }

    /// The planes with `padding` bytes after each row (random bytes, so reading them shows);
    /// the last row keeps its padding unless `trimmed`.
    func planes(padding: Int, trimmed: Bool = false, seed: UInt64 = 99) -> [PixelPlane] {
        var random = SplitMix64(seed: seed)
        return rows.map { plane in
            var bytes: [UInt8] = []
            for (index, row) in plane.enumerated() {
                bytes += row
                if !(trimmed && index == plane.count - 1) {
                    bytes += (0..<padding).map { _ in UInt8.random(in: 0...255, using: &random) }
                }
            }
            return PixelPlane(bytes: Data(bytes), bytesPerRow: plane[0].count + padding)
        }
    }

    /// The planes one after another in one buffer: with `bytesPerRow` the Y plane's stride, the
    /// NV12/NV21 chroma plane's too and `ceil(bytesPerRow / 2)` for I420's chroma; with nil,
    /// every plane unpadded. The last row of the last plane omits its padding.
    func contiguous(bytesPerRow: Int?) -> Data {
        var bytes: [UInt8] = []
        for (index, plane) in rows.enumerated() {
            let stride = bytesPerRow.map { index > 0 && format == .i420 ? ($0 + 1) / 2 : $0 } ?? plane[0].count
            for (row, values) in plane.enumerated() {
                bytes += values
                if !(index == rows.count - 1 && row == plane.count - 1) {
                    bytes += [UInt8](repeating: UInt8(truncatingIfNeeded: 0xA5 &+ row), count: stride - values.count)
                }
            }
        }
        return Data(bytes)
    }

    /// The RGB8 conversion, pixel by pixel with `referenceRGB`.
    func rgb8(_ range: YUVColorRange) throws -> PixelImage {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let value = yuv(x, y)
                bytes += referenceRGB(value.y, value.u, value.v, range)
            }
        }
        return try PixelImage(bytes: bytes, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
    }
}

/// BT.601 to RGB as FFmpeg 5.1's swscale computes it in its exact path (`yuv2rgb_write_full`):
/// `(cY (Y − yOffset) + c u + c' v + 4096) >> 13`, saturated, with swscale's coefficients.
func referenceRGB(_ y: UInt8, _ u: UInt8, _ v: UInt8, _ range: YUVColorRange) -> [UInt8] {
    let rgb = referenceChannels(y, u, v, range)
    return [UInt8(rgb.red), UInt8(rgb.green), UInt8(rgb.blue)]
}

/// `referenceRGB` as a tuple of `Int32`.
func referenceChannels(_ y: UInt8, _ u: UInt8, _ v: UInt8, _ range: YUVColorRange) -> (red: Int32, green: Int32, blue: Int32) {
    let (yOffset, cY, cVR, cUG, cVG, cUB): (Int32, Int32, Int32, Int32, Int32, Int32) =
        range == .video
        ? (16, 9539, 13075, -3209, -6660, 16525) : (0, 8192, 11485, -2819, -5850, 14516)
    let luma = (Int32(y) - yOffset) * cY + 4096, u = Int32(u) - 128, v = Int32(v) - 128
    func saturated(_ sum: Int32) -> Int32 { min(max(sum >> 13, 0), 255) }
    return (saturated(luma + cVR * v), saturated(luma + cUG * u + cVG * v), saturated(luma + cUB * u))
}
