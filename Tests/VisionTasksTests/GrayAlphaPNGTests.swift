import Foundation
import Imaging
import TestSupport
import Testing
import VisionTasks

/// A gray + alpha PNG classifies as its gray picture: the gray value is repeated in red, green
/// and blue and the alpha is dropped, neither composited over a background nor premultiplied
/// (transparent pixels keep their gray). MediaPipe's own file loader refuses such a file
/// ("Expected image with 1 (grayscale), 3 (RGB) or 4 (RGBA) channels, found 2 channels.").
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct GrayAlphaPNGTests {
    /// burger-224.png's green channel as gray, with alpha `(x + y) mod 256` (0 included) when `alpha`.
    static func picture(colorType: UInt8) throws -> Data {
        let pixels = try ImageDecoder.decode(contentsOf: TestData.image("burger-224.png")).pixels
        let rows = (0..<pixels.height).map { y in
            (0..<pixels.width).flatMap { x -> [UInt8] in
                let gray = pixels.rgba(x: x, y: y).green
                switch colorType {
                case 4: return [gray, UInt8((x + y) % 256)]
                case 2: return [gray, gray, gray]
                default: return [gray]
                }
            }
        }
        return Data(PNGWriter.png(width: pixels.width, height: pixels.height, bitDepth: 8, colorType: colorType, rows: rows))
    }

    @Test(arguments: ["mobilenet_v1_0.25_224_1_metadata_1.tflite", "mobilenet_v1_0.25_224_quant.tflite"])
    func classifiesAsTheGrayPicture(model: String) throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(model).path
        options.scoreThreshold = -Float.greatestFiniteMagnitude
        let classifier = try ImageClassifier(options: options)
        let scores = { (colorType: UInt8) throws -> [Int: Float] in
            let result = try classifier.classify(image: MPImage(data: Self.picture(colorType: colorType)))
            return Dictionary(
                uniqueKeysWithValues: result.classificationResult.classifications[0].categories.map { ($0.index, $0.score) })
        }
        let grayAlpha = try scores(4)
        #expect(grayAlpha.count == 1001)
        #expect(grayAlpha == (try scores(0)))
        #expect(grayAlpha == (try scores(2)))
    }
}
