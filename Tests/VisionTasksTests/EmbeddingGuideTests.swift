import Foundation
import TestSupport
import Testing
import VisionTasks

/// The code of the "Embedding images" article runs and prints what it says.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct EmbeddingGuideTests {
    @Test func articleExampleGivesTheSimilarityItStates() throws {
        // As in EmbeddingImages.md, with the shared test data's paths.
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v2_035_96_embedder_with_metadata.tflite").path
        options.l2Normalize = true
        let embedder = try ImageEmbedder(options: options)

        let burger = try embedder.embed(image: MPImage(contentsOfFile: TestData.image("burger.jpg").path))
        let crop = try embedder.embed(image: MPImage(contentsOfFile: TestData.image("burger_crop.jpg").path))
        let similarity = try ImageEmbedder.cosineSimilarity(
            embedding1: burger.embeddingResult.embeddings[0], embedding2: crop.embeddingResult.embeddings[0])
        #expect((0.885..<0.895).contains(similarity), "the article says about 0.89, got \(similarity)")
    }
}
