import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// The input cases users hit with the reference systems: pixel layouts, padded rows, orientation,
/// and a model given by path or by bytes, all on a real photo and a real model.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct InputCaseTests {
    let classifier: ImageClassifier
    /// burger.jpg as decoded RGB (480 x 325).
    let photo: PixelImage

    init() throws {
        classifier = try fullClassifier("mobilenet_v1_0.25_224_quant.tflite")
        photo = try MPImage(contentsOf: TestData.image("burger.jpg")).pixels
    }

    func categories(_ image: MPImage) throws -> [ResultCategory] {
        try classifier.classify(image: image).classificationResult.classifications[0].categories
    }

    /// The photo's pixel (x, y) as RGB.
    func rgb(_ x: Int, _ y: Int) -> [UInt8] {
        let start = y * photo.bytesPerRow + x * 3
        return Array(photo.bytes[start..<start + 3])
    }

    /// A `width` x `height` buffer whose pixel (x, y) is `pixel(x, y)`, rows padded to `bytesPerRow`.
    func buffer(width: Int, height: Int, bytesPerRow: Int, _ pixel: (Int, Int) -> [UInt8]) -> Data {
        var bytes = [UInt8](repeating: 0xEE, count: bytesPerRow * height)
        for y in 0..<height {
            for x in 0..<width {
                let value = pixel(x, y)
                bytes.replaceSubrange(y * bytesPerRow + x * value.count..<y * bytesPerRow + (x + 1) * value.count, with: value)
            }
        }
        return Data(bytes)
    }

    @Test func rgbaBgraAndRgbOfTheSamePictureClassifyIdentically() throws {
        let (width, height) = (photo.width, photo.height)
        let rgb = try MPImage(
            pixels: buffer(width: width, height: height, bytesPerRow: width * 3) { self.rgb($0, $1) },
            width: width, height: height, format: .rgb8)
        // Alpha varies across the picture: MediaPipe drops it without compositing.
        let rgba = try MPImage(
            pixels: buffer(width: width, height: height, bytesPerRow: width * 4) {
                self.rgb($0, $1) + [UInt8(($0 * 7 + $1) % 256)]
            },
            width: width, height: height, format: .rgba8)
        let bgra = try MPImage(
            pixels: buffer(width: width, height: height, bytesPerRow: width * 4) { self.rgb($0, $1).reversed() + [0] },
            width: width, height: height, format: .bgra8)
        let expected = try categories(MPImage(contentsOf: TestData.image("burger.jpg")))
        #expect(expected.first?.index == 934)
        #expect(try categories(rgb) == expected)
        #expect(try categories(rgba) == expected)
        #expect(try categories(bgra) == expected)
    }

    /// Rows padded beyond width x channels, with an odd width of 333, give the packed answer.
    @Test(arguments: [PixelFormat.rgb8, .rgba8, .gray8])
    func paddedRowsGiveThePackedAnswer(format: PixelFormat) throws {
        let (width, height) = (333, photo.height)
        let pixel: (Int, Int) -> [UInt8] = { x, y in
            let value = self.rgb(x + 50, y)
            switch format {
            case .gray8: return [value[1]]
            case .rgba8: return value + [255]
            default: return value
            }
        }
        let packedStride = width * format.bytesPerPixel
        let packed = try MPImage(
            pixels: buffer(width: width, height: height, bytesPerRow: packedStride, pixel),
            width: width, height: height, format: format)
        for padding in [1, 3, 64] {
            let stride = packedStride + padding
            // The last row may omit its padding, as a CVPixelBuffer's plane may.
            let data = buffer(width: width, height: height, bytesPerRow: stride, pixel).dropLast(padding)
            let padded = try MPImage(pixels: Data(data), width: width, height: height, bytesPerRow: stride, format: format)
            #expect(try categories(padded) == categories(packed), "padding \(padding)")
        }
    }

    @Test func grayBecomesEqualRedGreenBlue() throws {
        let (width, height) = (photo.width, photo.height)
        let gray = try MPImage(
            pixels: buffer(width: width, height: height, bytesPerRow: width) { [self.rgb($0, $1)[0]] },
            width: width, height: height, format: .gray8)
        let rgb = try MPImage(
            pixels: buffer(width: width, height: height, bytesPerRow: width * 3) { x, y in
                let red = self.rgb(x, y)[0]
                return [red, red, red]
            }, width: width, height: height, format: .rgb8)
        #expect(try categories(gray) == categories(rgb))
    }

    /// Pixels stored turned or mirrored, tagged with the orientation that makes them upright,
    /// classify like the upright picture: the same top category and nearly the same scores
    /// (a turn resamples on a grid shifted by MediaPipe's pixel convention; a mirror alone is exact).
    @Test(arguments: ImageOrientation.allCases)
    func orientationRestoresTheUprightPicture(orientation: ImageOrientation) throws {
        let stored = OrientedPixels(upright: photo, orientation: orientation)
        let image = try MPImage(
            pixels: stored.bytes, width: stored.width, height: stored.height, format: .rgb8,
            orientation: orientation)
        let upright = try categories(MPImage(contentsOf: TestData.image("burger.jpg")))
        let ours = try categories(image)
        #expect(ours.first?.index == upright.first?.index)
        let tolerance: Float = orientation == .up || orientation == .upMirrored ? 0 : 0.05
        #expect(abs((ours.first?.score ?? 0) - (upright.first?.score ?? 1)) <= tolerance)
    }

    @Test func modelFromPathAndFromBytesGiveIdenticalResults() throws {
        let path = TestData.model("mobilenet_v1_0.25_224_1_metadata_1.tflite").path
        let fromPath = try ImageClassifier(modelPath: path)
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = try Data(contentsOf: URL(fileURLWithPath: path))
        let fromBytes = try ImageClassifier(options: options)
        for name in ["burger.jpg", "sparrow.png", "multi_objects.jpg"] {
            let image = try MPImage(contentsOf: TestData.image(name))
            #expect(
                try fromPath.classify(image: image).classificationResult.classifications
                    == fromBytes.classify(image: image).classificationResult.classifications, "\(name)")
        }
    }

    @Test func imageModeTimestampsAreSynthetic() throws {
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let stamps = try (0..<3).map { _ in try classifier.classify(image: image).timestampInMilliseconds }
        #expect(stamps == [0, 1000, 2000])
    }
}
