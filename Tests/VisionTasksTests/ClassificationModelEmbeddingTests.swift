import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// A classification model used as an embedder, as MediaPipe's ImageEmbedder accepts it: its
/// dequantized scores are the embedding, exactly the classifier's scores (by category index),
/// without score calibration.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ClassificationModelEmbeddingTests {
    @Test(
        arguments: [
            ("mobilenet_v1_0.25_224_quant.tflite", "probability"),
            ("mobilenet_v1_0.25_224_1_metadata_1.tflite", "probability"),
            ("mobilenet_v2_1.0_224_quant.tflite", nil),  // no metadata; scale 0.0989, zero point 58
            ("mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite", nil),
        ] as [(String, String?)])
    func scoresAreTheEmbedding(model: String, headName: String?) throws {
        let classifier = try fullClassifier(model)
        let embedder = try embedder(model)
        for name in ["burger.jpg", "sparrow.png"] {
            let image = try MPImage(contentsOf: TestData.image(name))
            let head = try classifier.classify(image: image).classificationResult.classifications[0]
            let scores = head.categories.sorted { $0.index < $1.index }.map(\.score)
            let embeddings = try embedder.embed(image: image).embeddingResult.embeddings
            try #require(embeddings.count == 1)
            #expect(scores.count == 1001, "\(model): every category, negative scores included")
            #expect(embeddings[0].floatEmbedding == scores, "\(model) \(name)")
            #expect(embeddings[0].headIndex == head.headIndex)
            // The classifier reports a missing name as "", the embedder as nil (as MediaPipe iOS).
            #expect(embeddings[0].headName == headName)
            #expect(head.headName == headName ?? "")
        }
    }

    /// MediaPipe's embedder has no score calibration: the calibrated model (the same weights)
    /// gives the plain model's embedding, while its classifier scores are calibrated.
    @Test func calibrationIsNotApplied() throws {
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let plain = try embedder("mobilenet_v1_0.25_224_quant.tflite").embed(image: image)
        let calibratedModel = "generated/mobilenet_v1_0.25_224_quant_calibrated.tflite"
        let calibrated = try embedder(calibratedModel).embed(image: image)
        let plainValues = try #require(plain.embeddingResult.embeddings.first?.floatEmbedding)
        #expect(calibrated.embeddingResult.embeddings.map(\.floatEmbedding) == [plainValues])
        let scores = try fullClassifier(calibratedModel).classify(image: image).classificationResult.classifications[0]
            .categories.sorted { $0.index < $1.index }.map(\.score)
        #expect(scores.count == plainValues.count)
        #expect(scores != plainValues, "the classifier calibrates")
    }
}
