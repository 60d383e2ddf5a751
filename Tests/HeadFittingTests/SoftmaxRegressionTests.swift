import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import HeadFitting

/// Small problems whose optimum is known in closed form, or checked against its definition.
struct SoftmaxRegressionTests {
    /// The logistic function.
    static func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    /// The weight `a` of the two-point problem x = +1 (class 1), x = −1 (class 0): by symmetry
    /// W = (−a, a) and b = 0, and setting dL/da = 0 gives λa + σ(2a) = 1 − ε/2. Solved by
    /// bisection (the left side increases with a).
    static func twoPointWeight(l2Strength: Double, labelSmoothing: Double) -> Double {
        let target = 1 - labelSmoothing / 2
        var (low, high) = (0.0, 100.0)
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if l2Strength * middle + sigmoid(2 * middle) < target { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    static func twoPoints() throws -> TrainingSet {
        try TrainingSet(features: try Matrix(rows: 2, columns: 1, values: [1, -1]), labels: [1, 0], classCount: 2)
    }

    @Test(arguments: [(0.1, 0.0), (0.1, 0.2), (0.01, 0.0), (0.0, 0.3)])
    func twoPointOptimumIsKnown(l2Strength: Double, labelSmoothing: Double) throws {
        let fit = try SoftmaxRegression.fit(
            try Self.twoPoints(), options: SoftmaxRegressionOptions(l2Strength: l2Strength, labelSmoothing: labelSmoothing))
        let a = Self.twoPointWeight(l2Strength: l2Strength, labelSmoothing: labelSmoothing)
        #expect(fit.stopReason == .converged)
        #expect(abs(fit.model.weights[0, 0] + a) <= 1e-6, "W \(fit.model.weights.values), a \(a)")
        #expect(abs(fit.model.weights[1, 0] - a) <= 1e-6, "W \(fit.model.weights.values), a \(a)")
        #expect(fit.model.bias.allSatisfy { abs($0) <= 1e-9 }, "b \(fit.model.bias)")
        // Each point's own class has probability σ(2a).
        let probabilities = try fit.model.probabilities(for: try Self.twoPoints().features)
        #expect(abs(probabilities[0, 1] - Self.sigmoid(2 * a)) <= 1e-6)
        #expect(abs(probabilities[1, 0] - Self.sigmoid(2 * a)) <= 1e-6)
        #expect(try fit.model.predictions(for: try Self.twoPoints().features) == [1, 0])
        // L(a) = −(1 − ε/2) log σ(2a) − (ε/2) log σ(−2a) + λa².
        let expected =
            -(1 - labelSmoothing / 2) * log(Self.sigmoid(2 * a)) - labelSmoothing / 2 * log(Self.sigmoid(-2 * a))
            + l2Strength * a * a
        #expect(abs(fit.objective - expected) <= 1e-12, "\(fit.objective) vs \(expected)")
    }

    /// Label smoothing lowers the confidence the optimum can reach: with λ = 0 and one example
    /// per class (x = the class's unit vector), the probabilities equal the smoothed targets,
    /// 1 − ε + ε/K on the label and ε/K elsewhere.
    @Test(arguments: [0.1, 0.3, 0.6])
    func unpenalizedOptimumMatchesSmoothedTargets(labelSmoothing: Double) throws {
        let identity = try Matrix(rows: 3, columns: 3, values: [1, 0, 0, 0, 1, 0, 0, 0, 1])
        let data = try TrainingSet(features: identity, labels: [0, 1, 2], classCount: 3)
        let fit = try SoftmaxRegression.fit(
            data, options: SoftmaxRegressionOptions(l2Strength: 0, labelSmoothing: labelSmoothing))
        #expect(fit.stopReason == .converged)
        let probabilities = try fit.model.probabilities(for: identity)
        for row in 0..<3 {
            for column in 0..<3 {
                let target = (row == column ? 1 - labelSmoothing : 0) + labelSmoothing / 3
                #expect(abs(probabilities[row, column] - target) <= 1e-6, "(\(row), \(column)): \(probabilities[row, column])")
            }
        }
    }

    /// With a penalty, smoothing shrinks the weights (a smaller margin is enough).
    @Test func smoothingShrinksTheWeights() throws {
        let data = try Self.randomSet(rows: 40, columns: 5, classes: 3, seed: 7)
        var norms: [Double] = []
        for smoothing in [0.0, 0.1, 0.3] {
            let fit = try SoftmaxRegression.fit(
                data, options: SoftmaxRegressionOptions(l2Strength: 0.01, labelSmoothing: smoothing))
            #expect(fit.stopReason == .converged)
            norms.append(fit.model.weights.values.reduce(0) { $0 + $1 * $1 })
        }
        #expect(norms[0] > norms[1] && norms[1] > norms[2], "‖W‖² \(norms)")
    }

    /// The gradient is the objective's: central differences agree on every parameter.
    @Test(arguments: [(0.05, 0.0), (0.0, 0.2), (0.3, 0.1)])
    func gradientMatchesFiniteDifferences(l2Strength: Double, labelSmoothing: Double) throws {
        let data = try Self.randomSet(rows: 12, columns: 4, classes: 3, seed: 11)
        let objective = SoftmaxObjective(data: data, l2Strength: l2Strength, labelSmoothing: labelSmoothing)
        var random = SplitMix64(seed: 5)
        var parameters = (0..<objective.parameterCount).map { _ in Double.random(in: -1...1, using: &random) }
        var gradient = [Double](repeating: 0, count: parameters.count)
        var scratch = gradient
        func value(_ parameters: [Double]) -> Double {
            parameters.withUnsafeBufferPointer { objective.evaluate($0.baseAddress!, gradient: &scratch) }
        }
        _ = parameters.withUnsafeBufferPointer { objective.evaluate($0.baseAddress!, gradient: &gradient) }
        for index in parameters.indices {
            let numeric = Self.centralDifference(&parameters, index, value)
            #expect(abs(numeric - gradient[index]) <= 1e-8, "parameter \(index): \(gradient[index]) vs \(numeric)")
        }
    }

    /// Rows spread over every lane in blocks of `SoftmaxObjective.blockRows` (the last one
    /// short) give the value and gradient of the objective's definition, row by row.
    @Test func lanesSumEveryRowOnce() throws {
        let (n, d, k, l2) = (SoftmaxObjective.blockRows * Lanes.count * 2 + 5, 7, 3, 0.05)
        var random = SplitMix64(seed: 21)
        let rows = (0..<n).map { _ in (0..<d).map { _ in Float.random(in: -2...2, using: &random) } }
        let labels = (0..<n).map { ($0 * 7) % k }
        let data = try TrainingSet(rows: rows, labels: labels, classCount: k)
        let objective = SoftmaxObjective(data: data, l2Strength: l2, labelSmoothing: 0)
        let parameters = (0..<objective.parameterCount).map { _ in Double.random(in: -1...1, using: &random) }
        var gradient = [Double](repeating: 0, count: parameters.count)
        let value = parameters.withUnsafeBufferPointer { objective.evaluate($0.baseAddress!, gradient: &gradient) }
        var (expected, expectedGradient) = (0.0, [Double](repeating: 0, count: parameters.count))
        for (row, label) in zip(rows, labels) {
            let logits = (0..<k).map { c in
                parameters[k * d + c] + (0..<d).reduce(0.0) { $0 + parameters[c * d + $1] * Double(row[$1]) }
            }
            let total = logits.reduce(0.0) { $0 + exp($1) }
            expected += (log(total) - logits[label]) / Double(n)
            for c in 0..<k {
                let residual = (exp(logits[c]) / total - (c == label ? 1 : 0)) / Double(n)
                for j in 0..<d { expectedGradient[c * d + j] += residual * Double(row[j]) }
                expectedGradient[k * d + c] += residual
            }
        }
        for index in 0..<k * d {
            expected += 0.5 * l2 * parameters[index] * parameters[index]
            expectedGradient[index] += l2 * parameters[index]
        }
        #expect(abs(value - expected) <= 1e-13 * expected, "\(value) vs \(expected)")
        for (index, (ours, theirs)) in zip(gradient, expectedGradient).enumerated() {
            #expect(abs(ours - theirs) <= 1e-13, "parameter \(index): \(ours) vs \(theirs)")
        }
    }

    /// At a penalized optimum the gradient vanishes, so each feature's weights sum to 0 over
    /// the classes (as the bias does, by construction).
    @Test func optimumIsStationary() throws {
        let data = try Self.randomSet(rows: 60, columns: 8, classes: 4, seed: 3)
        let fit = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: 0.02))
        #expect(fit.stopReason == .converged)
        #expect(fit.gradientNorm <= 1e-8 * max(1, Self.norm(fit.model.weights.values + fit.model.bias)))
        for column in 0..<8 {
            let sum = (0..<4).map { fit.model.weights[$0, column] }.reduce(0, +)
            #expect(abs(sum) <= 1e-7, "column \(column): \(sum)")
        }
        #expect(abs(fit.model.bias.reduce(0, +)) <= 1e-12)
        let again = try fit.model.objective(on: data, options: SoftmaxRegressionOptions(l2Strength: 0.02))
        #expect(again == ObjectiveValue(value: fit.objective, gradientNorm: fit.gradientNorm))
    }

    /// Probabilities are a softmax of the logits, stable for huge logits.
    @Test func probabilitiesAreStableSoftmax() throws {
        let model = try SoftmaxRegression(weights: try Matrix(rows: 3, columns: 1, values: [1000, 0, -1000]), bias: [0, 0, 1])
        let features = try Matrix(rows: 3, columns: 1, values: [1, 0, -1])
        let probabilities = try model.probabilities(for: features)
        #expect(probabilities.values.allSatisfy { $0.isFinite })
        #expect(probabilities.row(0).elementsEqual([1, 0, 0]))
        let e = exp(1.0)
        #expect(probabilities.row(1).elementsEqual([1 / (2 + e), 1 / (2 + e), e / (2 + e)]) { abs($0 - $1) <= 1e-15 })
        #expect(probabilities.row(2).elementsEqual([0, 0, 1]))
        #expect(try model.predictions(for: features) == [0, 2, 2])
        #expect(try model.logits(for: features).values == [1000, 0, -999, 0, 0, 1, -1000, 0, 1001])
        let none = try Matrix(rows: 0, columns: 1, values: [])
        #expect(try model.probabilities(for: none) == Matrix(rows: 0, columns: 3, values: []))
        #expect(try model.predictions(for: none) == [])
    }

    /// A limit on iterations stops a fit early, with a usable model and the reason.
    @Test func maximumIterationsStopsTheFit() throws {
        let data = try Self.randomSet(rows: 60, columns: 8, classes: 4, seed: 3)
        var iterations: [Int] = []
        let fit = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: 0.02, maxIterations: 3)) {
            iterations.append($0.iteration)
        }
        #expect(fit.stopReason == .maximumIterations)
        #expect(!fit.stopReason.isConvergence)
        #expect(fit.iterations == 3)
        #expect(iterations == [1, 2, 3])
        #expect(fit.evaluations >= 4)
    }

    /// The objective-decrease test (liblbfgs's past and delta) stops a fit that still improves.
    @Test func objectiveDecreaseTestStopsTheFit() throws {
        let data = try Self.randomSet(rows: 60, columns: 8, classes: 4, seed: 3)
        let full = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: 0.02))
        let stalled = try SoftmaxRegression.fit(
            data,
            options: SoftmaxRegressionOptions(l2Strength: 0.02, objectiveDecreaseTolerance: 1e-3, objectiveDecreaseWindow: 2))
        #expect(stalled.stopReason == .objectiveStalled)
        #expect(stalled.stopReason.isConvergence)
        #expect(stalled.iterations < full.iterations)
        #expect(stalled.objective >= full.objective)
    }

    /// A cancelled task stops the fit after the iteration under way.
    @Test func cancellationStopsTheFit() async throws {
        let data = try Self.randomSet(rows: 60, columns: 8, classes: 4, seed: 3)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { () throws(TasksError) in try SoftmaxRegression.fit(data) }
        }
        let outcome = await task.value
        #expect(throws: TasksError(.cancelledError, "training was cancelled at iteration 1")) { try outcome.get() }
    }

    /// N rows of D features drawn around a centre per class (overlapping: no separation).
    static func randomSet(rows: Int, columns: Int, classes: Int, seed: UInt64) throws -> TrainingSet {
        var random = SplitMix64(seed: seed)
        let centres = (0..<classes).map { _ in (0..<columns).map { _ in Double.random(in: -1...1, using: &random) } }
        let labels = (0..<rows).map { $0 % classes }
        let values = labels.flatMap { label in centres[label].map { $0 + Double.random(in: -1.5...1.5, using: &random) } }
        return try TrainingSet(
            features: try Matrix(rows: rows, columns: columns, values: values), labels: labels, classCount: classes)
    }

    /// (f(x + h eᵢ) − f(x − h eᵢ)) / 2h with h = 1e-6, `point` restored after.
    static func centralDifference(_ point: inout [Double], _ index: Int, _ value: ([Double]) -> Double) -> Double {
        let (original, step) = (point[index], 1e-6)
        point[index] = original + step
        let above = value(point)
        point[index] = original - step
        let below = value(point)
        point[index] = original
        return (above - below) / (2 * step)
    }

    static func norm(_ values: [Double]) -> Double { values.reduce(0) { $0 + $1 * $1 }.squareRoot() }
}
