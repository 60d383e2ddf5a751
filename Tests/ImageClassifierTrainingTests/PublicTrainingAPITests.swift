import Foundation
import ImageClassifierTraining
import TestSupport
import Testing

/// The public API as a user's package sees it (no `@testable`): the DocC article's steps on a
/// small subset of `clothing-small`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct PublicTrainingAPITests {
    /// Links to the first `count` photos of `classes` in `clothing-small/SPLIT`.
    static func subset(_ split: String, count: Int, in root: URL) throws -> URL {
        let folder = root.appendingPathComponent(split)
        for name in ["hat", "pants", "shoes"] {
            let source = TestData.url("datasets/clothing-small/\(split)/\(name)")
            let target = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for photo in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted().prefix(count) {
                try FileManager.default.createSymbolicLink(
                    at: target.appendingPathComponent(photo), withDestinationURL: source.appendingPathComponent(photo))
            }
        }
        return folder
    }

    @Test func trainWriteEvaluate() throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let train = try Self.subset("train", count: 8, in: root)
        let validation = try Self.subset("validation", count: 4, in: root)
        var parameters = ImageClassifierTrainer.Parameters(
            baseModelPath: TestData.model("mobilenet_v1_1.0_224_quant_embedding_extractor.tflite").path)
        parameters.validation = .dataSource(.labeledDirectories(at: validation))
        parameters.workerCount = 2
        // scikit-learn's C = 1 (else it is chosen on the 12 validation photos, and may be strong enough to miss a training photo).
        parameters.l2Penalty = 1.0 / 24
        let classifier = try ImageClassifierTrainer.train(trainingData: .labeledDirectories(at: train), parameters: parameters)
        #expect(classifier.classes == ["hat", "pants", "shoes"])
        #expect(classifier.trainingAccuracy == 1 && classifier.converged && classifier.skippedPhotos == 0)
        let validationAccuracy = try #require(classifier.validationAccuracy)
        let output = root.appendingPathComponent("model")
        try classifier.write(to: output, quantize: true)
        for file in ["model.tflite", "model_quantized.tflite", "automl/manifest.json", "automl/dict.txt", "remote/model.zip"] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(file).path), "\(file)")
        }
        let metrics = try ImageClassifierTrainer.evaluate(
            modelPath: output.appendingPathComponent("model.tflite").path, on: .labeledDirectories(at: validation))
        #expect(metrics.count == 12 && metrics.skipped == 0)
        #expect(metrics.accuracy == validationAccuracy, "the written model measures as the fit did")
        #expect(metrics.confusionMatrix.map { $0.reduce(0, +) } == [4, 4, 4])
        #expect(throws: TasksError.self) { try classifier.write(to: output) }
    }

    @Test func aBadSplitIsRefused() throws {
        var parameters = ImageClassifierTrainer.Parameters(baseModelPath: "unused.tflite")
        parameters.validation = .split(fraction: 1.5)
        #expect(throws: TasksError.invalidArgument("The validation fraction must be between 0 and 1, got 1.5.")) {
            try ImageClassifierTrainer.train(
                trainingData: .labeledDirectories(at: URL(fileURLWithPath: "/nonexistent")), parameters: parameters)
        }
    }
}
