import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// YUV frames through the public `MPImage` initializers.
@Suite enum YUVInputTests {}

extension YUVInputTests {
    /// Camera and decoder frames (NV12, NV21, I420, YUYV, video and full range) classify like the
    /// RGB photo they encode: burger.jpg converted to Y'CbCr here with BT.601's forward matrix.
    @Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
    struct Classification {
        static let model = "mobilenet_v1_0.25_224_quant.tflite"
        let classifier: ImageClassifier
        /// burger.jpg as decoded RGB (480 x 325: an odd height).
        let photo: PixelImage

        init() throws {
            classifier = try fullClassifier(Self.model)
            photo = try MPImage(contentsOf: TestData.image("burger.jpg")).pixels
        }

        func categories(_ image: MPImage) throws -> [ResultCategory] {
            try classifier.classify(image: image).classificationResult.classifications[0].categories
        }

        /// BT.601 (Kr = 0.299, Kb = 0.114) from 8-bit R, G, B: Y', Cb, Cr unrounded, in the 8-bit
        /// scale of `range` (video: Y' 16...235, chroma 16...240; full: 0...255).
        static func yCbCr(
            _ red: UInt8, _ green: UInt8, _ blue: UInt8,
            _ range: YUVColorRange
        ) -> (y: Double, cb: Double, cr: Double) {
            let (r, g, b) = (Double(red) / 255, Double(green) / 255, Double(blue) / 255)
            let luma = 0.299 * r + 0.587 * g + 0.114 * b
            let (cb, cr) = ((b - luma) / 1.772, (r - luma) / 1.402)
            switch range {
            case .video: return (16 + 219 * luma, 128 + 224 * cb, 128 + 224 * cr)
            case .full: return (255 * luma, 128 + 255 * cb, 128 + 255 * cr)
            }
        }

        static func byte(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }

        /// The photo's planes in `format`. See `planes(of:_:_:padded:)`.
        func planes(_ format: PixelFormat, _ range: YUVColorRange, padded: Bool) -> [PixelPlane] {
            Self.planes(of: photo, format, range, padded: padded)
        }

        /// The planes of an RGB `photo` in `format`: luma per pixel, chroma per pixel (4:4:4) or
        /// averaged over each 2x2 block (4:2:0) or pixel pair (YUYV), partial blocks at the odd
        /// edges included. Rows are
        /// unpadded; `padded` rounds each plane's stride up to a multiple of 64, as a
        /// `CVPixelBuffer` does, and fills the padding with 0xEE.
        static func planes(of photo: PixelImage, _ format: PixelFormat, _ range: YUVColorRange, padded: Bool) -> [PixelPlane] {
            let (width, height) = (photo.width, photo.height)
            let pixels = (0..<height).map { y in
                (0..<width).map { x in
                    let p = photo.rgba(x: x, y: y)
                    return Self.yCbCr(p.red, p.green, p.blue, range)
                }
            }
            let blockHeight = format == .yuyv ? 1 : 2
            let chroma = stride(from: 0, to: height, by: blockHeight).map { top in
                stride(from: 0, to: width, by: 2).map { left -> (cb: UInt8, cr: UInt8) in
                    let block = (top..<min(top + blockHeight, height)).flatMap { y in
                        (left..<min(left + 2, width)).map { pixels[y][$0] }
                    }
                    return (
                        Self.byte(block.map(\.cb).reduce(0, +) / Double(block.count)),
                        Self.byte(block.map(\.cr).reduce(0, +) / Double(block.count))
                    )
                }
            }
            let luma = pixels.map { row in row.map { Self.byte($0.y) } }
            let rows: [[[UInt8]]]
            switch format {
            case .i444: rows = [luma, pixels.map { $0.map { Self.byte($0.cb) } }, pixels.map { $0.map { Self.byte($0.cr) } }]
            case .nv12: rows = [luma, chroma.map { $0.flatMap { [$0.cb, $0.cr] } }]
            case .nv21: rows = [luma, chroma.map { $0.flatMap { [$0.cr, $0.cb] } }]
            case .i420: rows = [luma, chroma.map { $0.map(\.cb) }, chroma.map { $0.map(\.cr) }]
            case .yuyv:
                rows = [
                    zip(luma, chroma).map { lumaRow, chromaRow in
                        chromaRow.enumerated().flatMap { pair, value in
                            [lumaRow[2 * pair], value.cb, lumaRow[min(2 * pair + 1, width - 1)], value.cr]
                        }
                    }
                ]
            case .rgba8, .bgra8, .rgb8, .gray8: preconditionFailure("\(format) is not YUV")
            }
            return rows.map { plane in
                let stride = padded ? (plane[0].count + 63) / 64 * 64 : plane[0].count
                let bytes = plane.flatMap { $0 + [UInt8](repeating: 0xEE, count: stride - $0.count) }
                return PixelPlane(bytes: Data(bytes), bytesPerRow: stride)
            }
        }

        @Test(
            "a YUV frame classifies like the RGB photo",
            arguments: [PixelFormat.nv12, .nv21, .i420, .i444, .yuyv], YUVColorRange.allCases)
        func classifiesLikeRGB(format: PixelFormat, range: YUVColorRange) throws {
            let rgb = try categories(MPImage(contentsOf: TestData.image("burger.jpg")))
            let step = try tolerance(for: Self.model)

            let fromPlanes = try MPImage(
                planes: planes(format, range, padded: true), width: photo.width, height: photo.height,
                format: format, colorRange: range)
            let yuv = try categories(fromPlanes)
            #expect(
                yuv.first?.index == rgb.first?.index,
                "\(yuv.first?.categoryName ?? "none") instead of \(rgb.first?.categoryName ?? "none")")
            let difference = abs((yuv.first?.score ?? 0) - (rgb.first?.score ?? 1))
            #expect(difference <= 2 * step, "top score \(yuv.first?.score ?? 0) vs RGB \(rgb.first?.score ?? 0)")

            // The same frame in one unpadded buffer (FFmpeg's rawvideo layout) gives the same result.
            let contiguous = Data(planes(format, range, padded: false).map(\.bytes).joined())
            let fromBuffer = try MPImage(
                pixels: contiguous, width: photo.width, height: photo.height, format: format,
                colorRange: range)
            #expect(try categories(fromBuffer) == yuv)
        }

        @Test("the default color range is video range")
        func defaultRangeIsVideo() throws {
            let planes = planes(.nv12, .video, padded: false)
            let explicit = try MPImage(
                planes: planes, width: photo.width, height: photo.height, format: .nv12,
                colorRange: .video)
            let implicit = try MPImage(planes: planes, width: photo.width, height: photo.height, format: .nv12)
            #expect(try categories(implicit) == categories(explicit))
            let full = try MPImage(planes: planes, width: photo.width, height: photo.height, format: .nv12, colorRange: .full)
            #expect(try categories(full) != categories(explicit))
        }

        /// Frames stored turned or mirrored, tagged with the orientation that makes them upright,
        /// classify like the same stored RGB pixels with that orientation: the orientation applies
        /// to YUV frames as to RGB ones (`InputCaseTests` compares those with the upright photo).
        /// Up to 4 quantization steps: the turned frame's width is odd (325), so its chroma blocks
        /// and rounding differ from the upright frame's (3 steps seen for `.right`).
        @Test("orientation makes a turned YUV frame upright", arguments: ImageOrientation.allCases)
        func orientation(_ orientation: ImageOrientation) throws {
            let stored = OrientedPixels(upright: photo, orientation: orientation)
            let storedRGB = try PixelImage(
                copying: stored.bytes, width: stored.width, height: stored.height,
                bytesPerRow: stored.width * 3, format: .rgb8)
            let rgb = try categories(
                MPImage(
                    pixels: stored.bytes, width: stored.width, height: stored.height, format: .rgb8,
                    orientation: orientation))
            let image = try MPImage(
                planes: Self.planes(of: storedRGB, .nv12, .video, padded: true), width: stored.width,
                height: stored.height, format: .nv12, orientation: orientation)
            let yuv = try categories(image)
            let step = try tolerance(for: Self.model)
            #expect(yuv.first?.index == rgb.first?.index)
            #expect(
                abs((yuv.first?.score ?? 0) - (rgb.first?.score ?? 1)) <= 4 * step,
                "top score \(yuv.first?.score ?? 0) vs RGB \(rgb.first?.score ?? 0)")
        }
    }

    /// Invalid YUV frames are `invalidArgumentError`s through the public initializers.
    @Suite struct Errors {
        @Test func wrongPlaneCount() {
            let y = PixelPlane(bytes: Data(count: 16), bytesPerRow: 4)
            expectTasksError(.invalidArgumentError, containing: ["Invalid plane count for nv12", "expected 2 (Y, UV), got 1"]) {
                try MPImage(planes: [y], width: 4, height: 4, format: .nv12)
            }
            expectTasksError(.invalidArgumentError, containing: ["Invalid plane count for i420", "expected 3 (Y, U, V), got 2"]) {
                try MPImage(planes: [y, y], width: 4, height: 4, format: .i420)
            }
        }

        @Test func chromaPlaneTooSmall() {
            let y = PixelPlane(bytes: Data(count: 35), bytesPerRow: 7)
            expectTasksError(
                .invalidArgumentError,
                containing: ["plane 1 (UV) of 7x5 nv12 has 16 bytes", "3 rows (ceil(height 5 / 2)) of 8 bytes", "need 24"]
            ) {
                try MPImage(planes: [y, PixelPlane(bytes: Data(count: 16), bytesPerRow: 8)], width: 7, height: 5, format: .nv12)
            }
            expectTasksError(
                .invalidArgumentError,
                containing: ["Invalid bytesPerRow 7 of plane 1 (UV) of 7x5 nv12", "2 x ceil(width 7 / 2) = 8"]
            ) {
                try MPImage(
                    planes: [y, PixelPlane(bytes: Data(count: 24), bytesPerRow: 7)], width: 7, height: 5, format: .nv12,
                    colorRange: .full)
            }
        }

        @Test func singleBufferTooSmall() {
            expectTasksError(.invalidArgumentError, containing: ["Pixel buffer too small: 58 bytes", "7x5 nv21 needs 59"]) {
                try MPImage(pixels: Data(count: 58), width: 7, height: 5, format: .nv21)
            }
            expectTasksError(
                .invalidArgumentError,
                containing: ["Invalid bytesPerRow 7 of plane 1 (UV) of 7x5 nv12 (the Y plane's bytesPerRow)"]
            ) {
                try MPImage(pixels: Data(count: 100), width: 7, height: 5, bytesPerRow: 7, format: .nv12)
            }
            expectTasksError(.invalidArgumentError, containing: ["Invalid image size 0x5"]) {
                try MPImage(pixels: Data(count: 100), width: 0, height: 5, format: .yuyv)
            }
        }
    }
}
