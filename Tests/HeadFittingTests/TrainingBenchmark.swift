import Foundation
import HeadFitting
import TestSupport
import Testing

/// The folder of cached features (`train.jsonl`, `validation.jsonl`: what `vision-tasks embed
/// --format jsonl` prints for the clothing set's folders), from `SVT_TRAINING_BENCH`.
private let benchmarkFolder = ProcessInfo.processInfo.environment["SVT_TRAINING_BENCH"].map {
    URL(fileURLWithPath: $0)
}

/// Figures of the training solver, printed, not checked against times (opt in:
/// `scripts/training-bench` sets `SVT_TRAINING_BENCH` to a folder of cached embeddings).
@Suite(.serialized, .enabled(if: benchmarkFolder != nil, "opt in: scripts/training-bench"))
struct TrainingBenchmark {

    /// One record of `vision-tasks embed --format jsonl`.
    struct Record: Decodable {
        struct Head: Decodable { let floatEmbedding: [Float] }
        let image: String
        let embeddings: [Head]
    }

    /// The rows of a cached file, in file-name order, each labelled by its folder's name.
    static func load(_ name: String) throws -> (features: Matrix, classes: [String]) {
        let url = try #require(benchmarkFolder).appendingPathComponent(name)
        let records = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
            .sorted { $0.image < $1.image }
        let classes = records.map { URL(fileURLWithPath: $0.image).deletingLastPathComponent().lastPathComponent }
        return (try Matrix(rows: records.map { $0.embeddings[0].floatEmbedding }), classes)
    }

    /// Fits and prints the figures of one run: size, iterations, time, objective, accuracy.
    static func run(
        _ name: String, _ data: TrainingSet, _ options: SoftmaxRegressionOptions, validation: (Matrix, [Int])? = nil
    ) throws -> SoftmaxRegressionFit {
        let clock = ContinuousClock()
        var fit: SoftmaxRegressionFit?
        let time = try clock.measure { fit = try SoftmaxRegression.fit(data, options: options) }
        let result = try #require(fit)
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) * 1e-18
        func accuracy(_ features: Matrix, _ labels: [Int]) throws -> String {
            let predictions = try result.model.predictions(for: features)
            let correct = zip(predictions, labels).filter { $0 == $1 }.count
            return String(format: "%.4f", Double(correct) / Double(labels.count))
        }
        var line =
            "\(name): N \(data.count), D \(data.featureCount), K \(data.classCount), λ \(options.l2Strength), "
            + "ε \(options.labelSmoothing): \(result.stopReason), \(result.iterations) iterations, "
            + "\(result.evaluations) evaluations, \(String(format: "%.3f", seconds)) s "
            + "(\(String(format: "%.2f", seconds * 1000 / Double(result.evaluations))) ms per evaluation), "
            + "objective \(result.objective), ‖g‖ \(String(format: "%.2e", result.gradientNorm)), "
            + "training accuracy \(try accuracy(data.features, data.labels))"
        if let (features, labels) = validation { line += ", validation accuracy \(try accuracy(features, labels))" }
        print(line)
        return result
    }

    /// The 200-photo reference problem against scikit-learn's answer.
    @Test func referenceProblem() throws {
        let reference = try SklearnReferenceTests.reference.get()
        let data = try SklearnReferenceTests.trainingSet()
        let fit = try Self.run("reference", data, SoftmaxRegressionOptions(l2Strength: reference.l2Strength))
        let sklearn = try SklearnReferenceTests.sklearnModel()
        func largest(_ a: [Double], _ b: [Double]) -> String {
            String(format: "%.2e", zip(a, b).map { abs($0 - $1) }.max() ?? .nan)
        }
        let probabilities = (
            try fit.model.probabilities(for: data.features).values, try sklearn.probabilities(for: data.features).values
        )
        print(
            "reference vs scikit-learn \(reference.sklearnVersion) (n_iter \(reference.nIter)): objective "
                + "\(fit.objective) vs \(reference.objective) (relative \(String(format: "%.2e", (fit.objective - reference.objective) / reference.objective))), "
                + "max |ΔW| \(largest(fit.model.weights.values, sklearn.weights.values)), "
                + "max |Δb| \(largest(fit.model.bias, sklearn.bias)), max |Δp| \(largest(probabilities.0, probabilities.1))")
    }

    /// The whole clothing training set (3,068 photos), with the validation set's accuracy.
    @Test func fullTrainingSet() throws {
        let train = try Self.load("train.jsonl")
        let validation = try Self.load("validation.jsonl")
        let classNames = Array(Set(train.classes)).sorted()
        let labels = train.classes.map { classNames.firstIndex(of: $0)! }
        let validationLabels = validation.classes.map { classNames.firstIndex(of: $0)! }
        let data = try TrainingSet(features: train.features, labels: labels, classCount: classNames.count)
        let held = (validation.features, validationLabels)
        let n = Double(data.count)
        _ = try Self.run("clothing train", data, SoftmaxRegressionOptions(l2Strength: 1 / n), validation: held)
        _ = try Self.run("clothing train", data, SoftmaxRegressionOptions(l2Strength: 1e-3), validation: held)
        _ = try Self.run(
            "clothing train", data, SoftmaxRegressionOptions(l2Strength: 1e-3, labelSmoothing: 0.1), validation: held)
        _ = try Self.run(
            "clothing train", data, SoftmaxRegressionOptions(l2Strength: 1e-3, gradientTolerance: 1e-6), validation: held)
    }
}
