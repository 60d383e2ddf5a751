import Foundation
import TestSupport
import Testing
import VisionTasks

/// `MPImage(contentsOf:orientation:decoding:)` with `.fast(covering:regionOfInterest:)` and
/// `ImageClassifier.inputImageSize`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct FastDecodingTests {
    @Test func reducesWhereTheInputIsStillCovered() throws {
        let classifier = try ImageClassifier(modelPath: TestData.model("mobilenet_v1_0.25_224_quant.tflite").path)
        #expect(classifier.inputImageSize == CGSize(width: 224, height: 224))
        let url = TestData.image("cats_and_dogs.jpg")  // 1200x600
        let exact = try MPImage(contentsOf: url)
        let fast = try MPImage(contentsOf: url, decoding: .fast(covering: classifier.inputImageSize))
        #expect(exact.width == 1200 && exact.height == 600)
        #expect(fast.width == 600 && fast.height == 300, "1/2 is the smallest scale with 224 pixels on both axes")
        // Half the image as region: 1/2 no longer covers it across.
        let region = CGRect(x: 0, y: 0, width: 0.25, height: 1)
        let regionFast = try MPImage(
            contentsOf: url, decoding: .fast(covering: classifier.inputImageSize, regionOfInterest: region))
        #expect(regionFast.width == 1200)
        // The same answer as the exact pixels on this photo.
        let exactTop = try classifier.classify(image: exact).classificationResult.classifications[0].categories.first
        let fastTop = try classifier.classify(image: fast).classificationResult.classifications[0].categories.first
        #expect(fastTop?.index == exactTop?.index)
        #expect(abs((fastTop?.score ?? 0) - (exactTop?.score ?? 1)) < 0.1)
    }

    @Test func invalidCoverIsRefused() {
        #expect(throws: (any Error).self) {
            _ = try MPImage(contentsOf: TestData.image("burger.jpg"), decoding: .fast(covering: CGSize(width: 0, height: 10)))
        }
        #expect(throws: (any Error).self) {
            _ = try MPImage(
                contentsOf: TestData.image("burger.jpg"),
                decoding: .fast(
                    covering: CGSize(width: 10, height: 10), regionOfInterest: CGRect(x: 0.5, y: 0, width: 0.9, height: 1)))
        }
    }
}
