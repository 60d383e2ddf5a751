import Foundation
import GraphSurgery
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing
import VisionTasks

/// Writing a fine-tuned tail (`ClassifierHeadAppender.replacingTail`): the base's own last
/// block written back in float32 with a head gives what the quantized base gives with that
/// head, and the model takes metadata and loads as an image classifier.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct TailWriterTests {
    static let base = "mobilenet_v1_1.0_224_quant_embedding_extractor.tflite"

    /// A seeded head of 10 classes over `features` values, weights in [-0.05, 0.05].
    static func head(features: Int) -> DenseHead {
        var random = SplitMix64(seed: 7)
        let weights = (0..<10 * features).map { _ in Float.random(in: -0.05...0.05, using: &random) }
        return DenseHead(weights: weights, bias: (0..<10).map { _ in Float.random(in: -1...1, using: &random) })
    }

    static let head = head(features: 1024)

    static func logits(_ head: DenseHead, input: Int) -> TailLayer {
        TailLayer(
            operation: .fullyConnected(
                weights: head.weights, weightsShape: [head.classCount, head.featureCount], bias: head.bias, activation: .none),
            inputs: [input], outputShape: [1, head.classCount], name: "logits")
    }

    /// Every class's score for each photo, from `model` labelled and run as an image classifier.
    static func scores(_ model: Data, images: [String], classes: Int = 10) throws -> [[Float]] {
        var metadata = ImageClassifierMetadata(name: "fine-tuned", description: "A test of the tail writer.")
        metadata.labels = [.init(fileName: "labels.txt", labels: (0..<classes).map { "class \($0)" })]
        let labelled = try ModelMetadataWriter.write(model: model, metadata: metadata).model
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = labelled
        options.maxResults = -1
        let classifier = try ImageClassifier(options: options)
        return try images.map { image in
            let categories = try classifier.classify(image: try MPImage(contentsOf: TestData.image(image)))
                .classificationResult.classifications[0].categories
            #expect(categories.allSatisfy { $0.categoryName == "class \($0.index)" })
            var scores = [Float](repeating: -1, count: classes)
            for category in categories { scores[category.index] = category.score }
            return scores
        }
    }

    /// The base model, its feature tensor, its own tail from `cut` and a seeded head on it.
    static func baseTail(
        _ base: String, cut: Int, features: Int
    ) throws -> (bytes: Data, feature: Int, tail: ModelTail, head: DenseHead) {
        let bytes = try Data(contentsOf: TestData.model(base))
        let feature = try ClassifierHeadAppender.featureTensor(of: bytes).index
        return (bytes, feature, try ModelTail.reading(bytes, from: cut, to: feature), head(features: features))
    }

    /// The base's own tail from `cut`, float32, with a head, against the quantized base with
    /// that head. Measured on these photos, the largest score difference is 0.0023 for
    /// MobileNet V1's last block (depthwise 13, pointwise 13, average pool) and 0.0051 for
    /// MobileNet V2's last three (with expanded_conv_15's residual ADD): the float tail skips
    /// the requantization of each layer's output (steps of about 1% of its range), an error
    /// that grows with the layers. The bound, 0.01, is twice the larger; the top class is the same.
    @Test(arguments: [(base, 77, 1024), ("mobilenet_v2_1.0_224_quant_labels.tflite", 153, 1280)])
    func theBaseOwnTailWrittenBackAgreesWithTheBase(base: String, cut: Int, features: Int) throws {
        let (bytes, feature, tail, head) = try Self.baseTail(base, cut: cut, features: features)
        let written = try ClassifierHeadAppender.replacingTail(
            of: bytes, at: cut, with: tail.layers + [Self.logits(head, input: tail.layers.count)])
        let output = try ModelTensor.tensors(inModel: written).outputs
        #expect(output.map(\.name) == ["probabilities"] && output.map(\.shape) == [[1, 10]] && output[0].typeName == "FLOAT32")
        let reference = try ClassifierHeadAppender.appending(head, to: bytes, at: feature)
        let images = ["burger.jpg", "sparrow.png", "cat.jpg", "grace_hopper.jpg"]
        let fineTuned = try Self.scores(written, images: images)
        let quantized = try Self.scores(reference, images: images)
        var largest: Float = 0
        for (image, (float, base)) in zip(images, zip(fineTuned, quantized)) {
            #expect(abs(float.reduce(0, +) - 1) < 1e-4, "\(image): \(float)")
            #expect(float.indices.max { float[$0] < float[$1] } == base.indices.max { base[$0] < base[$1] }, "\(image)")
            largest = max(largest, zip(float, base).map { abs($0 - $1) }.max() ?? 0)
        }
        print("TailWriterTests: \(base) from tensor \(cut): largest score difference, float tail vs quantized: \(largest)")
        #expect(largest < 0.01, "largest score difference \(largest)")
    }

    /// The base's own tail written in int8 (`--quantize`), calibrated with the ranges the base's
    /// own quantization gives each layer's output: the filters become INT8 with a scale per
    /// output channel, the scores UINT8, and the model scores as the quantized base does with
    /// that head (the float head on top is quantized too here, so the bound is the float tail's).
    @Test(arguments: [(base, 77, 1024), ("mobilenet_v2_1.0_224_quant_labels.tflite", 153, 1280)])
    func theBaseOwnTailInInt8AgreesWithTheBase(base: String, cut: Int, features: Int) throws {
        let (bytes, feature, tail, head) = try Self.baseTail(base, cut: cut, features: features)
        let layers = tail.layers + [Self.logits(head, input: tail.layers.count)]
        let reference = try ClassifierHeadAppender.appending(head, to: bytes, at: feature)
        let images = ["burger.jpg", "sparrow.png", "cat.jpg", "grace_hopper.jpg"]
        let logits = try Self.logits(head, features: ClassifierHeadAppender.cutting(bytes, at: feature), images: images)
        let logitRange = (logits.min()! * 1.1)...(logits.max()! * 1.1)
        let calibration = TailCalibration(
            ranges: try [range(of: cut, in: bytes)] + tail.layers.map { try range(named: $0.name, in: bytes) } + [logitRange])
        let written = try ClassifierHeadAppender.replacingTail(of: bytes, at: cut, with: layers, calibration: calibration)

        let output = try ModelTensor.tensors(inModel: written).outputs
        #expect(output.map(\.name) == ["probabilities"] && output[0].typeName == "UINT8" && output[0].scale == [1.0 / 256])
        let firstConvolution = try #require(tail.layers.first { $0.operation.weights != nil })
        let index = tail.layers.firstIndex(of: firstConvolution)!
        let filter = try ClassifierHeadAppender.tensor(named: "tail/\(index)/\(firstConvolution.name)/filter", in: written).tensor
        let channels = Int(filter.shape[0] == 1 ? filter.shape[3] : filter.shape[0])
        #expect(filter.typeName == "INT8" && filter.scale.count == channels, "\(filter)")
        // The written model holds the reference's bytes (the base, the float head) but the tail's weights again.
        let tailWeights = tail.layers.compactMap(\.operation.weights).reduce(0) { $0 + $1.values.count }
        #expect(written.count - reference.count < 2 * tailWeights, "int8 weights (1 byte each), not float32 (4)")

        let quantized = try Self.scores(written, images: images)
        let expected = try Self.scores(reference, images: images)
        var largest: Float = 0
        for (image, (int8, base)) in zip(images, zip(quantized, expected)) {
            #expect(int8.indices.max { int8[$0] < int8[$1] } == base.indices.max { base[$0] < base[$1] }, "\(image)")
            largest = max(largest, zip(int8, base).map { abs($0 - $1) }.max() ?? 0)
        }
        print("TailWriterTests: \(base) from tensor \(cut) in int8: largest score difference vs quantized base: \(largest)")
        #expect(largest < 0.02, "largest score difference \(largest)")
    }

    /// The head's logits on the features of `images`, from `features` (the base cut there).
    private static func logits(_ head: DenseHead, features: Data, images: [String]) throws -> [Float] {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetBuffer = features
        let embedder = try ImageEmbedder(options: options)
        return try images.flatMap { image in
            let embedding = try #require(
                try embedder.embed(image: try MPImage(contentsOf: TestData.image(image))).embeddingResult.embeddings.first)
            let values = try #require(embedding.floatEmbedding)
            return (0..<head.classCount).map { row in
                zip(head.weights[(row * values.count)...].prefix(values.count), values).reduce(head.bias[row]) {
                    $0 + $1.0 * $1.1
                }
            }
        }
    }

    /// The real values a UINT8 tensor of the base can hold.
    private func range(named name: String, in model: Data) throws -> ClosedRange<Float> {
        let tensor = try ClassifierHeadAppender.tensor(named: name, in: model).tensor
        let scale = try #require(tensor.scale.first), zeroPoint = Float(try #require(tensor.zeroPoint.first))
        return (scale * (0 - zeroPoint))...(scale * (255 - zeroPoint))
    }

    private func range(of index: Int, in model: Data) throws -> ClosedRange<Float> {
        try range(named: String(index), in: model)
    }

    @Test func badLayersAreRefused() throws {
        let bytes = try Data(contentsOf: TestData.model(Self.base))
        let logits = Self.logits(Self.head, input: 0)
        #expect(throws: TasksError.invalidArgument("The tail has no layers; it needs at least the logits.")) {
            try ClassifierHeadAppender.replacingTail(of: bytes, at: 81, with: [])
        }
        let pool = TailLayer(
            operation: .averagePool2D(filterH: 7, filterW: 7, strideH: 1, strideW: 1, padding: .valid, activation: .none),
            inputs: [0], outputShape: [1, 1, 1, 1024], name: "pool")
        let notLogits =
            "The tail's last layer (0, output [1, 1, 1, 1024]) must be the logits: a fullyConnected with output [1, classes]."
        #expect(throws: TasksError.invalidArgument(notLogits)) {
            try ClassifierHeadAppender.replacingTail(of: bytes, at: 81, with: [pool])
        }
        var outOfRange = logits
        outOfRange.inputs = [2]
        let reads = "Layer 1 ('logits') reads values [2]; it takes 1, each from 0 (the cut) to 1 (the previous layer's output)."
        #expect(throws: TasksError.invalidArgument(reads)) {
            try ClassifierHeadAppender.replacingTail(of: bytes, at: 81, with: [pool, outOfRange])
        }
        var short = Self.logits(DenseHead(weights: [Float](repeating: 0, count: 10), bias: [0, 0]), input: 1)
        short.operation = .fullyConnected(weights: [0, 0], weightsShape: [2, 1024], bias: [0, 0], activation: .none)
        short.outputShape = [1, 2]
        let weights = "Layer 1 ('logits') has 2 weights for shape [2, 1024] and 2 biases for 2 outputs."
        #expect(throws: TasksError.invalidArgument(weights)) {
            try ClassifierHeadAppender.replacingTail(of: bytes, at: 81, with: [pool, short])
        }
        let input = "tensor 0 (input) is an input or a constant of the base model, not a cut its layers compute."
        #expect(throws: TasksError.invalidArgument(input)) {
            try ClassifierHeadAppender.replacingTail(of: bytes, at: 0, with: [pool, Self.logits(Self.head, input: 1)])
        }
    }
}
