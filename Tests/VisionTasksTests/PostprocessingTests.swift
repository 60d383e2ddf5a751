import Foundation
import TFLiteMetadata
import TestSupport
import Testing

@testable import TaskRuntime
@testable import VisionTasks

/// TFLite Support's AutoML postprocessing cases: the flowers model's output replaced by the fixed
/// uint8 scores {0, 64, 255, 32, 128} (scale 1/256), through max results, threshold, allowlist
/// and denylist (`image_classifier_test.cc` in tflite-support).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct AutoMLPostprocessingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var maxResults = -1
        var scoreThreshold: Float = 0
        var allowlist: [String] = []
        var denylist: [String] = []
        let expected: [(index: Int, name: String, score: Float)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "max results 3", maxResults: 3,
            expected: [(2, "roses", 0.99609375), (4, "tulips", 0.5), (1, "dandelion", 0.25)]),
        Case(
            name: "threshold 0.4", scoreThreshold: 0.4,
            expected: [(2, "roses", 0.99609375), (4, "tulips", 0.5)]),
        Case(
            name: "allowlist", allowlist: ["dandelion", "daisy"],
            expected: [(1, "dandelion", 0.25), (0, "daisy", 0)]),
        Case(
            name: "denylist", denylist: ["dandelion", "daisy"],
            expected: [(2, "roses", 0.99609375), (4, "tulips", 0.5), (3, "sunflowers", 0.125)]),
    ]

    @Test(arguments: cases)
    func fixedScores(_ item: Case) throws {
        let asset = try ModelAsset(path: TestData.model("automl_labeler_model.tflite").path, buffer: nil)
        let engine = try ClassifierEngine(
            ClassifierConfiguration(
                asset: asset, threadCount: 1, maxResults: item.maxResults, scoreThreshold: .value(item.scoreThreshold),
                categoryAllowlist: item.allowlist, categoryDenylist: item.denylist))
        let raw: [UInt8] = [0, 64, 255, 32, 128]
        let scores = raw.withUnsafeBytes { engine.heads[0].scores(from: $0) }
        let categories = engine.postprocess(scores: [scores])[0].categories
        #expect(categories.map(\.index) == item.expected.map(\.index))
        #expect(categories.map(\.categoryName) == item.expected.map(\.name))
        #expect(categories.map(\.score) == item.expected.map(\.score))
    }

    /// Equal scores keep index order (MediaPipe's sort leaves ties unspecified; ours is stable).
    @Test func tiesAreOrderedByIndex() throws {
        let asset = try ModelAsset(path: TestData.model("automl_labeler_model.tflite").path, buffer: nil)
        let engine = try ClassifierEngine(ClassifierConfiguration(asset: asset, threadCount: 1))
        let raw: [UInt8] = [7, 9, 7, 9, 7]
        let scores = raw.withUnsafeBytes { engine.heads[0].scores(from: $0) }
        #expect(engine.postprocess(scores: [scores])[0].categories.map(\.index) == [1, 3, 0, 2, 4])
    }
}

/// Score calibration formula cases computed by hand from MediaPipe's definition.
struct ScoreCalibratorTests {
    @Test func inverseLogisticIdentitySigmoid() {
        let calibrator = ScoreCalibrator(
            transformation: .inverseLogistic, defaultScore: 0.05,
            sigmoids: [Sigmoid(scale: 1, slope: 1, offset: 0, minScore: nil)])
        // slope 1, offset 0: σ(logit(x)) = x.
        #expect(abs(calibrator.calibrate(0.3, with: calibrator.sigmoids[0]) - 0.3) < 1e-6)
    }

    @Test func missingSigmoidAndMinScoreGiveDefault() {
        let calibrator = ScoreCalibrator(transformation: .identity, defaultScore: 0.05, sigmoids: [])
        #expect(calibrator.calibrate(0.9, with: nil) == 0.05)
        #expect(calibrator.calibrate(0.2, with: Sigmoid(scale: 1, slope: 1, offset: 0, minScore: 0.5)) == 0.05)
    }

    @Test func scaleAndClamp() {
        let calibrator = ScoreCalibrator(transformation: .identity, defaultScore: 0, sigmoids: [])
        // z = 2·0.5 + 1 = 2: 0.8 · σ(2) = 0.8 / (1 + e^−2).
        let value = calibrator.calibrate(0.5, with: Sigmoid(scale: 0.8, slope: 2, offset: 1, minScore: nil))
        #expect(abs(value - 0.8 / (1 + exp(-2))) < 1e-6)
        // Large negative z uses the overflow-safe form and stays ≥ 0.
        #expect(calibrator.calibrate(-1e30, with: Sigmoid(scale: 1, slope: 1, offset: 0, minScore: nil)) == 0)
    }

    @Test func logTransformationContinuesBelowEpsilon() {
        let calibrator = ScoreCalibrator(transformation: .log, defaultScore: 0, sigmoids: [])
        let sigmoid = Sigmoid(scale: 1, slope: 0.01, offset: 0, minScore: nil)
        // g(0) = 2 log 1e−16 − log 2e−16 = log(1e−16 / 2): finite, so the result is a real probability.
        let value = calibrator.calibrate(0, with: sigmoid)
        let z = 0.01 * (2 * log(Float(1e-16)) - log(Float(2e-16)))
        #expect(abs(value - exp(z) / (1 + exp(z))) < 1e-6)
    }
}
