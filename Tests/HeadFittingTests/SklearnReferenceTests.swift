import Foundation
import HeadFitting
import TestSupport
import Testing
import VisionTasks

/// Our fit against scikit-learn's `LogisticRegression(C=1, solver='lbfgs', tol=1e-10)` on the
/// embeddings of 200 clothing photos (20 of each of 10 classes): the same strictly convex
/// objective, so the same optimum.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct SklearnReferenceTests {
    static let reference = Result { try SoftmaxReference.load() }

    /// Our embeddings of the reference's photos (MediaPipe's, bit for bit), made once per run.
    static let features = Result { () throws -> Matrix in
        let reference = try Self.reference.get()
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = TestData.model(reference.model).path
        let embedder = try ImageEmbedder(options: options)
        let folder = TestData.url(reference.dataset)
        let rows = try reference.files.map { file in
            let image = try MPImage(contentsOf: folder.appendingPathComponent(file))
            return try #require(try embedder.embed(image: image).embeddingResult.embeddings.first?.floatEmbedding)
        }
        return try Matrix(rows: rows)
    }

    static func trainingSet() throws -> TrainingSet {
        let reference = try Self.reference.get()
        return try TrainingSet(features: try features.get(), labels: reference.labels, classCount: reference.classNames.count)
    }

    /// scikit-learn's coefficients as a model.
    static func sklearnModel() throws -> SoftmaxRegression {
        let reference = try Self.reference.get()
        return try SoftmaxRegression(weights: try Matrix(rows: reference.coef), bias: reference.intercept)
    }

    @Test func referenceDescribesTheData() throws {
        let reference = try Self.reference.get()
        #expect(reference.mediapipeVersion == "1.2.3")
        #expect(reference.sklearnVersion == "1.9.1")
        #expect(reference.files.count == 200)
        #expect(reference.classNames.count == 10)
        #expect(reference.labels == reference.files.map { file in reference.classNames.firstIndex { file.hasPrefix("\($0)/") } })
        #expect(reference.l2Strength == 1.0 / 200)
        #expect(reference.coef.count == 10 && reference.coef.allSatisfy { $0.count == 1024 })
    }

    /// Our features are MediaPipe's: the sum of each row agrees to rounding.
    @Test func featuresAreMediaPipes() throws {
        let reference = try Self.reference.get()
        let features = try Self.features.get()
        for (row, expected) in reference.featureSums.enumerated() {
            let sum = features.row(row).reduce(0, +)
            #expect(abs(sum - expected) <= 1e-9 * max(1, abs(expected)), "\(reference.files[row]): \(sum) vs \(expected)")
        }
    }

    /// scikit-learn's point is an optimum of our objective too: its value is the one the script
    /// computed, and the gradient there is tiny.
    @Test func sklearnSolutionIsOptimalForOurObjective() throws {
        let reference = try Self.reference.get()
        let theirs = try Self.sklearnModel().objective(
            on: try Self.trainingSet(), options: SoftmaxRegressionOptions(l2Strength: reference.l2Strength))
        #expect(abs(theirs.value - reference.objective) <= 1e-12, "\(theirs.value) vs \(reference.objective)")
        #expect(theirs.gradientNorm <= 1e-6, "\(theirs.gradientNorm)")
    }

    /// The same optimum: objective, coefficients and predictions.
    @Test func fitReachesSklearnsOptimum() throws {
        let reference = try Self.reference.get()
        let data = try Self.trainingSet()
        var reports: [TrainingProgress] = []
        let fit = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: reference.l2Strength)) {
            reports.append($0)
        }
        #expect(fit.stopReason.isConvergence, "\(fit.stopReason)")
        #expect(fit.objective <= reference.objective * (1 + 1e-7), "ours \(fit.objective), sklearn \(reference.objective)")
        #expect(fit.objective >= reference.objective * (1 - 1e-6), "ours \(fit.objective), sklearn \(reference.objective)")
        // The default gradient test: ‖g‖ ≤ 1e-8 · max(1, ‖(W, b)‖).
        let parameterNorm = (fit.model.weights.values + fit.model.bias).reduce(0) { $0 + $1 * $1 }.squareRoot()
        #expect(fit.gradientNorm <= 1e-8 * max(1, parameterNorm), "‖g‖ \(fit.gradientNorm), ‖θ‖ \(parameterNorm)")

        let sklearn = try Self.sklearnModel()
        let weightDifference = zip(fit.model.weights.values, sklearn.weights.values).map { abs($0 - $1) }.max() ?? .infinity
        let biasDifference = zip(fit.model.bias, sklearn.bias).map { abs($0 - $1) }.max() ?? .infinity
        #expect(weightDifference <= 1e-3, "max |ΔW| \(weightDifference)")
        // The objective is nearly flat along the bias (the photos are all but separated, so the
        // softmax saturates): scikit-learn stops at ‖g‖ ≈ 2e-7 with its bias some 2e-3 from ours,
        // where our objective is the lower. The probabilities agree far closer.
        #expect(biasDifference <= 1e-2, "max |Δb| \(biasDifference)")
        let probabilityDifference =
            zip(try fit.model.probabilities(for: data.features).values, try sklearn.probabilities(for: data.features).values)
            .map { abs($0 - $1) }.max() ?? .infinity
        #expect(probabilityDifference <= 1e-4, "max |Δp| \(probabilityDifference)")

        let ours = try fit.model.predictions(for: data.features)
        #expect(ours == (try sklearn.predictions(for: data.features)))
        let accuracy = Double(zip(ours, data.labels).filter { $0 == $1 }.count) / Double(data.count)
        #expect(accuracy == reference.trainingAccuracy)

        // One report per iteration, the objective never rising.
        #expect(reports.map(\.iteration) == Array(1...fit.iterations))
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $1.objective <= $0.objective })
    }
}
