import Foundation
import GraphSurgery
import TestSupport
import Testing

@testable import TFLiteMetadata
@testable import VisionTasks

/// A trained head appended to a frozen base (`ClassifierHeadAppender`) and labelled
/// (`ModelMetadataWriter`): the model loads as an image classifier, and its scores are
/// softmax(W · features + b) of the features the base gives as an embedder.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ClassifierHeadTests {
    static let extractor = "mobilenet_v1_1.0_224_quant_embedding_extractor.tflite"
    static let embedder = "mobilenet_v2_035_96_embedder_with_metadata.tflite"
    static let classifier = "mobilenet_v1_0.25_224_quant.tflite"

    /// A seeded head of `classes` rows over `features` values, weights in [-0.05, 0.05].
    static func head(classes: Int, features: Int) -> DenseHead {
        var random = SplitMix64(seed: 20)
        let weights = (0..<classes * features).map { _ in Float.random(in: -0.05...0.05, using: &random) }
        let bias = (0..<classes).map { _ in Float.random(in: -1...1, using: &random) }
        return DenseHead(weights: weights, bias: bias)
    }

    /// The base with the head and five labels, written to a file.
    static func trainedModel(base: String, head: DenseHead, in folder: URL, quantized: Bool = false) throws -> String {
        let bytes = try Data(contentsOf: TestData.model(base))
        let feature = try ClassifierHeadAppender.featureTensor(of: bytes)
        let edited = try ClassifierHeadAppender.appending(head, to: bytes, at: feature.index, quantizedOutput: quantized)
        var metadata = ImageClassifierMetadata(name: "trained", description: "A head trained on \(base).")
        metadata.labels = [.init(fileName: "labels.txt", labels: (0..<head.classCount).map { "class \($0)" })]
        let written = try ModelMetadataWriter.write(model: edited, metadata: metadata).model
        let path = folder.appendingPathComponent(quantized ? "trained-uint8.tflite" : "trained.tflite").path
        try written.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func featureTensors() throws {
        let extractor = try ClassifierHeadAppender.featureTensor(of: try Data(contentsOf: TestData.model(Self.extractor)))
        #expect(extractor.tensor.typeName == "UINT8" && extractor.tensor.shape == [1, 1, 1, 1024])
        let embedder = try ClassifierHeadAppender.featureTensor(of: try Data(contentsOf: TestData.model(Self.embedder)))
        #expect(embedder.tensor.typeName == "FLOAT32" && embedder.tensor.shape == [1, 1280])
        // The classifier's pre-logits: the average pool before the 1×1 convolution to 1001 classes.
        let classifier = try ClassifierHeadAppender.featureTensor(of: try Data(contentsOf: TestData.model(Self.classifier)))
        #expect(classifier.tensor.typeName == "UINT8" && classifier.tensor.shape == [1, 1, 1, 256], "\(classifier)")
        // A classifier that ends at its logits (no SOFTMAX): still the pool, not the 1,001 logits.
        let logits = try ClassifierHeadAppender.featureTensor(
            of: try Data(contentsOf: TestData.model("mobilenet_v2_1.0_224_quant.tflite")))
        #expect(logits.tensor.name == "MobilenetV2/Logits/AvgPool" && logits.tensor.shape == [1, 1, 1, 1280], "\(logits)")
    }

    /// Scores within 1e-5 of softmax(W · f + b), f the (dequantized) embedding of the photo by
    /// the base cut at its feature tensor (for an embedder, the base itself; for a classifier,
    /// its pre-logits).
    @Test(arguments: [(extractor, 1024), (embedder, 1280), (classifier, 256)])
    func scoresAreTheHeadOnTheBaseFeatures(base: String, features: Int) throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let head = Self.head(classes: 5, features: features)
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = try Self.trainedModel(base: base, head: head, in: folder)
        options.maxResults = -1
        let classifier = try ImageClassifier(options: options)
        let bytes = try Data(contentsOf: TestData.model(base))
        let embedderOptions = ImageEmbedderOptions()
        embedderOptions.baseOptions.modelAssetBuffer = try ClassifierHeadAppender.cutting(
            bytes, at: try ClassifierHeadAppender.featureTensor(of: bytes).index)
        let embedder = try ImageEmbedder(options: embedderOptions)
        for image in ["burger.jpg", "sparrow.png"] {
            let picture = try MPImage(contentsOf: TestData.image(image))
            let categories = try classifier.classify(image: picture).classificationResult.classifications[0].categories
            let f = try #require(try embedder.embed(image: picture).embeddingResult.embeddings[0].floatEmbedding)
            let logits = (0..<head.classCount).map { k in
                head.bias[k] + zip(head.weights[(k * features)..<((k + 1) * features)], f).reduce(0) { $0 + $1.0 * $1.1 }
            }
            let top = logits.max() ?? 0
            let exponentials = logits.map { exp($0 - top) }
            let total = exponentials.reduce(0, +)
            for category in categories {
                let expected = exponentials[category.index] / total
                #expect(
                    abs(category.score - expected) <= 1e-5,
                    "\(base) \(image) class \(category.index): \(category.score) vs \(expected)")
                #expect(category.categoryName == "class \(category.index)")
            }
            #expect(categories.count == head.classCount)
        }
    }

    /// The UINT8 variant's scores are within one step (1/256) of the float model's.
    @Test(arguments: [(extractor, 1024), (embedder, 1280), (classifier, 256)])
    func quantizedScoresAreWithinOneStep(base: String, features: Int) throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let head = Self.head(classes: 5, features: features)
        func scores(quantized: Bool) throws -> [Int: Float] {
            let options = ImageClassifierOptions()
            options.baseOptions.modelAssetPath = try Self.trainedModel(base: base, head: head, in: folder, quantized: quantized)
            options.maxResults = -1
            let result = try ImageClassifier(options: options).classify(
                image: try MPImage(contentsOf: TestData.image("burger.jpg")))
            return Dictionary(
                uniqueKeysWithValues: result.classificationResult.classifications[0].categories.map { ($0.index, $0.score) })
        }
        let float = try scores(quantized: false)
        let quantized = try scores(quantized: true)
        #expect(float.count == 5)
        for (index, score) in float {
            let other = try #require(quantized[index], "class \(index) has no UINT8 score")
            #expect(abs(other - score) <= 1.0 / 256 + 1e-6, "\(base) class \(index): \(other) vs \(score)")
            #expect((other * 256).rounded() == other * 256, "a UINT8 score is a multiple of 1/256")
        }
    }

    @Test func badFeatureTensorsAreRefused() throws {
        let bytes = try Data(contentsOf: TestData.model(Self.extractor))
        let head = Self.head(classes: 2, features: 1024)
        #expect(throws: TasksError.invalidArgument("Tensor 100000 does not exist: the base model has 83 tensors.")) {
            try ClassifierHeadAppender.appending(head, to: bytes, at: 100_000)
        }
        let feature = try ClassifierHeadAppender.featureTensor(of: bytes)
        let wrongSize = Self.head(classes: 2, features: 512)
        #expect {
            try ClassifierHeadAppender.appending(wrongSize, to: bytes, at: feature.index)
        } throws: { error in
            (error as? TasksError)?.reason.hasSuffix("has 1024 values; the head was trained on 512 features.") == true
        }
    }
}
