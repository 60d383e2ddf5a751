import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// Tiny and odd images of every format, every orientation and regions at the edges, classified
/// by the real models: no crash, and one picture held as RGB8, RGBA8, BGRA8 (and gray as gray8
/// and RGB8) scores the same whichever layout carries it.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct TinyImageClassificationTests {
    static let models = ["mobilenet_v1_0.25_224_quant.tflite", "mobilenet_v1_0.25_224_1_metadata_1.tflite"]
    static let sizes: [(width: Int, height: Int)] = [(1, 1), (2, 1), (3, 3), (9, 9), (17, 1)]
    static let regions = [
        CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 0.99, y: 0.99, width: 0.01, height: 0.01),
    ]

    /// The scores of every head, in category-index order.
    static func scores(_ classifier: ImageClassifier, _ image: MPImage, _ region: CGRect) throws -> [Float] {
        let result = try classifier.classify(image: image, regionOfInterest: region)
        return result.classificationResult.classifications.flatMap { head in
            head.categories.sorted { $0.index < $1.index }.map(\.score)
        }
    }

    @Test("RGB layouts agree; YUV classifies without error", arguments: Self.models)
    func layouts(model: String) throws {
        let classifier = try fullClassifier(model) { $0.maxResults = -1 }
        var random = SplitMix64(seed: 5)
        var failures: [String] = []
        for size in Self.sizes {
            let count = size.width * size.height
            let rgb = (0..<(3 * count)).map { _ in UInt8.random(in: 0...255, using: &random) }
            var rgba: [UInt8] = [], bgra: [UInt8] = []
            for pixel in 0..<count {
                let (red, green, blue) = (rgb[3 * pixel], rgb[3 * pixel + 1], rgb[3 * pixel + 2])
                rgba += [red, green, blue, 255]
                bgra += [blue, green, red, 255]
            }
            let gray = Array(rgb.prefix(count))
            let grayAsRGB: [UInt8] = gray.flatMap { value -> [UInt8] in [value, value, value] }
            for orientation in ImageOrientation.allCases {
                func image(_ bytes: [UInt8], _ format: PixelFormat) throws -> MPImage {
                    try MPImage(
                        pixels: Data(bytes), width: size.width, height: size.height, format: format,
                        orientation: orientation)
                }
                for region in Self.regions {
                    let label = "\(size) \(orientation) \(region)"
                    let expected = try Self.scores(classifier, image(rgb, .rgb8), region)
                    if try Self.scores(classifier, image(rgba, .rgba8), region) != expected { failures.append("rgba8 \(label)") }
                    if try Self.scores(classifier, image(bgra, .bgra8), region) != expected { failures.append("bgra8 \(label)") }
                    if try Self.scores(classifier, image(gray, .gray8), region)
                        != Self.scores(classifier, image(grayAsRGB, .rgb8), region)
                    {
                        failures.append("gray8 \(label)")
                    }
                    for format in [PixelFormat.nv12, .nv21, .i420, .i444, .yuyv] {
                        let picture = YUVPictureBytes(format, width: size.width, height: size.height, using: &random)
                        let planar = try MPImage(
                            planes: picture.planes, width: size.width, height: size.height, format: format,
                            orientation: orientation)
                        let packed = try MPImage(
                            pixels: picture.packed, width: size.width, height: size.height, format: format,
                            orientation: orientation)
                        let scores = try Self.scores(classifier, planar, region)
                        if scores != (try Self.scores(classifier, packed, region)) || scores.contains(where: { !$0.isFinite }) {
                            failures.append("\(format) \(label)")
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(model): \(failures.prefix(10))")
    }
}

/// Random planes of a YUV picture, unpadded: as separate planes and packed one after another.
private struct YUVPictureBytes {
    let planes: [PixelPlane]
    let packed: Data

    init(_ format: PixelFormat, width: Int, height: Int, using random: inout SplitMix64) {
        let chroma = ((width + 1) / 2, (height + 1) / 2)
        let shapes: [(rowBytes: Int, rows: Int)] =
            switch format {
            case .nv12, .nv21: [(width, height), (2 * chroma.0, chroma.1)]
            case .i420: [(width, height), chroma, chroma]
            case .i444: [(width, height), (width, height), (width, height)]
            default: [(4 * chroma.0, height)]
            }
        var planes: [PixelPlane] = []
        var packed = Data()
        for shape in shapes {
            let bytes = Data((0..<(shape.rowBytes * shape.rows)).map { _ in UInt8.random(in: 0...255, using: &random) })
            planes.append(PixelPlane(bytes: bytes, bytesPerRow: shape.rowBytes))
            packed += bytes
        }
        self.planes = planes
        self.packed = packed
    }
}
