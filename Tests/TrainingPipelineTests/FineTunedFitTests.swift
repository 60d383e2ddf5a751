import FineTuning
import Foundation
import GraphSurgery
import ImageTasks
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing
import VisionTasks

@testable import TrainingPipeline

/// `train --fine-tune` in process on a small subset of `clothing-small`: the exported model (the
/// trunk quantized, the trained block in float32) gives the trained network's answers in the
/// classifier; runs repeat bit for bit; what cannot be trained is refused before any work.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct FineTunedFitTests {
    typealias Subset = ClassifierTrainerTests.Subset

    static func configuration(_ subset: Subset, blocks: Int = 1, output: String = "out") -> TrainingConfiguration {
        var configuration = subset.configuration(output: output)
        var settings = FineTuningSettings(cut: .blocks(blocks))
        settings.epochs = 3
        settings.batchSize = 4
        configuration.fineTuning = settings
        return configuration
    }

    @Test func theExportClassifiesAsTheTrainedNetwork() throws {
        let subset = try Subset(count: 9)
        let report = try ClassifierTrainer.train(Self.configuration(subset))
        let tuning = try #require(report.fineTuning)
        // MobileNet v1's last block: depthwise and pointwise 13 and the average pool, from a 7x7x1024 cut.
        #expect(tuning.blocks == 1 && tuning.cutShape == [1, 7, 7, 1024], "\(tuning)")
        #expect(tuning.trainedLayers.count >= 3, "\(tuning.trainedLayers)")
        #expect(tuning.epochs.map(\.epoch) == [1, 2, 3] && (1...3).contains(tuning.bestEpoch))
        #expect(tuning.epochs.allSatisfy { $0.validationLoss != nil && $0.loss.isFinite })
        #expect(report.featureCount == 7 * 7 * 1024 && report.validationCount == 9)

        // Every validation photo through the exported model: the share it gets right is the
        // report's validation accuracy, computed by the trained network on the cached trunk output.
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = subset.url("out/model.tflite").path
        options.maxResults = 3
        let classifier = try ImageClassifier(options: options)
        let folder = try LabeledImageFolder(subset.data)
        let validation = ValidationSplit.split(folder.examples, fraction: 0.34, seed: 7).validation
        var right = 0
        for example in validation {
            let categories = try classifier.classify(image: MPImage(contentsOfFile: example.input.path)).classificationResult
                .classifications[0].categories
            #expect(categories.count == 3 && abs(categories.map(\.score).reduce(0, +) - 1) < 1e-4, "a softmax over 3 classes")
            if categories[0].categoryName == folder.classes[example.label] { right += 1 }
        }
        let accuracy = try #require(report.validationAccuracy)
        #expect(abs(Double(right) / Double(validation.count) - accuracy) < 1e-9, "the model gives the network's accuracy")
    }

    /// `--quantize` with a trained block: `model_quantized.tflite` has the block in int8,
    /// calibrated on the training photos; the report's check classifies the validation photos
    /// with both models, and what it says is what the two models give in the classifier.
    @Test func theQuantizedModelIsMeasuredBesideTheFloatOne() throws {
        let subset = try Subset(count: 9)
        var configuration = Self.configuration(subset)
        configuration.quantize = true
        let report = try ClassifierTrainer.train(configuration)
        let check = try #require(report.quantizedCheck)
        #expect(check.photos == "validation" && check.count == report.validationCount, "\(check)")
        #expect(abs(check.floatAccuracy - (report.validationAccuracy ?? -1)) < 1e-9, "\(check) \(report)")

        let folder = try LabeledImageFolder(subset.data)
        let validation = ValidationSplit.split(folder.examples, fraction: 0.34, seed: 7).validation
        let float = try scores(subset.url("out/model.tflite"), validation, classes: folder.classes)
        let quantized = try scores(subset.url("out/model_quantized.tflite"), validation, classes: folder.classes)
        let right = zip(validation, quantized).filter { example, scores in
            scores.indices.max { scores[$0] < scores[$1] } == example.label
        }
        #expect(abs(Double(right.count) / Double(validation.count) - check.quantizedAccuracy) < 1e-9)
        let largest = zip(float, quantized).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
        print("FineTunedFitTests: int8 block vs float32: largest score difference \(largest)")
        #expect(largest < 0.05, "the int8 block scores as the float one within 0.05: \(largest)")
    }

    /// Each class's score for each example from the model at `url` (UINT8 scores are read as MediaPipe dequantizes them).
    private func scores(_ url: URL, _ examples: [LabeledImageFolder.Example], classes: [String]) throws -> [[Float]] {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = url.path
        options.maxResults = -1
        let classifier = try ImageClassifier(options: options)
        return try examples.map { example in
            var scores = [Float](repeating: 0, count: classes.count)
            let result = try classifier.classify(image: MPImage(contentsOfFile: example.input.path)).classificationResult
            for category in result.classifications[0].categories { scores[category.index] = category.score }
            return scores
        }
    }

    @Test func aRunRepeatsBitForBit() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 5)
        let first = try ClassifierTrainer.train(Self.configuration(subset, output: "first"))
        let second = try ClassifierTrainer.train(Self.configuration(subset, output: "second"))
        #expect(first.fineTuning?.epochs.map(\.loss) == second.fineTuning?.epochs.map(\.loss))
        #expect(try Data(contentsOf: subset.url("first/model.tflite")) == Data(contentsOf: subset.url("second/model.tflite")))
    }

    /// Keras's recipe: the head fitted on the frozen block's output first. The fitted head is the
    /// optimum on these photos, so the first epoch starts where the training photos are all right.
    @Test func theHeadCanBeFittedFirst() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 5)
        var configuration = Self.configuration(subset)
        configuration.fineTuning?.fitsHeadFirst = true
        configuration.fineTuning?.epochs = 1
        let report = try ClassifierTrainer.train(configuration)
        let iterations = try #require(report.fineTuning?.headFitIterations)
        #expect(iterations > 0)
        #expect(report.trainingAccuracy == 1, "\(report)")
        let randomHead = try ClassifierTrainer.train(Self.configuration(subset, output: "random"))
        #expect(randomHead.fineTuning?.headFitIterations == nil)
    }

    /// The base's last block read back computes what the quantized base does (within 10 %);
    /// the same block with its pointwise filter tripled does not, and is refused before training.
    @Test func aTailThatDoesNotComputeTheBaseIsRefused() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 2)
        let base = try FeatureExtractor(base: ClassifierTrainerTests.extractor)
        let cut = try ModelTail.cut(forBlocks: 1, of: base.baseModel, feature: base.featureTensor)
        let tail = try ModelTail.reading(base.baseModel, from: cut, to: base.featureTensor)
        let trunk = try FeatureExtractor(base: ClassifierTrainerTests.extractor, featureTensor: String(cut))
        let examples = try LabeledImageFolder(subset.data).examples
        let set = FeatureSet.extract(examples, tasks: [CachedFeatureTask(extractor: try trunk.task(threads: 1), cache: nil)])
        let network = try TailNetwork(layers: tail.layers, inputShape: tail.cutShape, hiddenUnits: [], classCount: 2, seed: 0)
        try TailCheck.check(network, tail: tail, base: base, on: set)

        var layers = tail.layers
        guard
            case .conv2D(let filter, let shape, let bias, let strideH, let strideW, let padding, let activation) = layers[1]
                .operation
        else {
            Issue.record("the second layer of MobileNet v1's last block is its pointwise convolution: \(layers[1].name)")
            return
        }
        layers[1].operation = .conv2D(
            filter: filter.map { $0 * 3 }, filterShape: shape, bias: bias, strideH: strideH, strideW: strideW, padding: padding,
            activation: activation)
        let wrong = try TailNetwork(layers: layers, inputShape: tail.cutShape, hiddenUnits: [], classCount: 2, seed: 0)
        do {
            try TailCheck.check(wrong, tail: tail, base: base, on: set)
            Issue.record("a tail that does not compute the base was accepted")
        } catch {
            #expect(error.message.contains("do not compute in float32 what the quantized base computes"), "\(error.message)")
            #expect(error.subject == .file(ClassifierTrainerTests.extractor))
        }
    }

    @Test func whatCannotBeTrainedIsRefusedBeforeAnyWork() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 2)
        let tooMany = TasksError.invalidArgument(
            "The base has 13 blocks before its features; --fine-tune 100 asks for more.",
            subject: .file(ClassifierTrainerTests.extractor))
        #expect(throws: tooMany) { try ClassifierTrainer.train(Self.configuration(subset, blocks: 100)) }
        #expect(!FileManager.default.fileExists(atPath: subset.url("out").path))
        #expect(!FileManager.default.fileExists(atPath: subset.url("cache").path), "no feature was computed")
    }
}
