import Foundation
import TestSupport
import Testing

@testable import HeadFitting

/// The fit's change of variables: the moments it is made of, its gradient (the chain rule
/// through W = W̃ L⁻¹, b = c − W μ), and what it buys on features that are badly scaled and far
/// from centred, as an extractor's are.
struct PreconditionerTests {
    /// Rows whose columns have means around `offset` and spreads from 0.01 to 100.
    static func skewedSet(rows: Int, columns: Int, classes: Int, offset: Double, seed: UInt64) throws -> TrainingSet {
        let base = try SoftmaxRegressionTests.randomSet(rows: rows, columns: columns, classes: classes, seed: seed)
        let scales = (0..<columns).map { pow(10, -2 + 4 * Double($0) / Double(max(columns - 1, 1))) }
        let values = base.features.values.enumerated().map { index, value in offset + scales[index % columns] * value }
        return try TrainingSet(
            features: try Matrix(rows: rows, columns: columns, values: values), labels: base.labels, classCount: classes)
    }

    /// μ and Σ as their definitions give them, over float rows read in several blocks.
    @Test func momentsAreTheMeanAndCovariance() throws {
        var random = SplitMix64(seed: 3)
        let rows = (0..<(FeatureRows.blockRows + 37)).map { _ in (0..<5).map { _ in Float.random(in: 0...6, using: &random) } }
        let data = try TrainingSet(rows: rows, labels: rows.indices.map { $0 % 2 }, classCount: 2)
        let moments = try #require(data.moments)
        let n = Double(rows.count)
        for i in 0..<5 {
            let mean = rows.reduce(0.0) { $0 + Double($1[i]) } / n
            #expect(abs(moments.mean[i] - mean) <= 1e-12 * max(1, abs(mean)))
            for j in 0..<5 {
                let meanJ = rows.reduce(0.0) { $0 + Double($1[j]) } / n
                let covariance = rows.reduce(0.0) { $0 + (Double($1[i]) - mean) * (Double($1[j]) - meanJ) } / n
                #expect(abs(moments.covariance[i * 5 + j] - covariance) <= 1e-10, "Σ[\(i), \(j)]")
            }
        }
    }

    /// The gradient the solver is given is the derivative of the value it is given, in its own
    /// variables (central differences), and the (W, b) norms it keeps are those of the objective;
    /// also over several blocks of `Preconditioner.blockColumns` (the last one short).
    @Test(arguments: [4, Preconditioner.blockColumns * 4 + 6])
    func solverGradientIsTheChainRule(columns: Int) throws {
        let data = try Self.skewedSet(rows: 30, columns: columns, classes: 3, offset: 2, seed: 11)
        let options = SoftmaxRegressionOptions(l2Strength: 0.05, labelSmoothing: 0.1)
        let objective = SoftmaxObjective(data: data, l2Strength: 0.05, labelSmoothing: 0.1)
        let solver = PreconditionedObjective(objective, options: options)
        var random = SplitMix64(seed: 5)
        var point = (0..<objective.parameterCount).map { _ in Double.random(in: -0.5...0.5, using: &random) }
        var gradient = [Double](repeating: 0, count: point.count)
        var scratch = gradient
        func value(_ point: [Double]) -> Double {
            point.withUnsafeBufferPointer { solver.evaluate($0.baseAddress!, gradient: &scratch) }
        }
        _ = point.withUnsafeBufferPointer { solver.evaluate($0.baseAddress!, gradient: &gradient) }
        let model = point.withUnsafeBufferPointer { solver.modelParameters($0.baseAddress!) }
        var modelGradient = gradient
        _ = model.withUnsafeBufferPointer { objective.evaluate($0.baseAddress!, gradient: &modelGradient) }
        #expect(abs(solver.lastGradientNorm - SoftmaxRegressionTests.norm(modelGradient)) <= 1e-12)
        let step = 1e-6
        for index in point.indices {
            let original = point[index]
            point[index] = original + step
            let above = value(point)
            point[index] = original - step
            let below = value(point)
            point[index] = original
            let numeric = (above - below) / (2 * step)
            #expect(
                abs(numeric - gradient[index]) <= 1e-7 * max(1, abs(numeric)),
                "variable \(index): \(gradient[index]) vs \(numeric)")
        }
    }

    /// A refresh from the rows' curvature changes the solver's variables, not the model they
    /// stand for (also over several blocks of `Preconditioner.blockColumns`), and its moments
    /// weigh the rows as asked (a row of weight 0 counts for nothing).
    @Test(arguments: [5, Preconditioner.blockColumns * 3 + 1])
    func refreshKeepsTheModel(columns: Int) throws {
        let data = try Self.skewedSet(rows: 40, columns: columns, classes: 3, offset: 3, seed: 2)
        let objective = SoftmaxObjective(data: data, l2Strength: 0.01, labelSmoothing: 0)
        let solver = PreconditionedObjective(objective, options: SoftmaxRegressionOptions(l2Strength: 0.01))
        var random = SplitMix64(seed: 8)
        var point = (0..<objective.parameterCount).map { _ in Double.random(in: -1...1, using: &random) }
        let before = point.withUnsafeBufferPointer { solver.modelParameters($0.baseAddress!) }
        let old = point
        point.withUnsafeMutableBufferPointer { solver.refresh($0.baseAddress!) }
        let after = point.withUnsafeBufferPointer { solver.modelParameters($0.baseAddress!) }
        #expect(point != old)
        #expect(zip(before, after).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0)) }, "\(before) vs \(after)")
        let curvatures = before.withUnsafeBufferPointer { objective.curvatures(at: $0.baseAddress!) }
        #expect(curvatures.allSatisfy { $0 > 0 && $0 <= 1.0 / 3 + 1e-12 })
        let weights = (0..<40).map { $0 < 20 ? 1.0 : 0 }
        let weighted = FeatureMoments(data.rows, weights: weights)
        let firstHalf = try TrainingSet(
            features: try Matrix(rows: 20, columns: columns, values: Array(data.features.values[..<(20 * columns)])),
            labels: Array(data.labels[..<20]), classCount: 3)
        let plain = try #require(firstHalf.moments)
        #expect(zip(weighted.mean, plain.mean).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) })
        #expect(zip(weighted.covariance, plain.covariance).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) })
        #expect(weighted.meanWeight == 0.5)
    }

    /// The preconditioner is remade where the rows' mean curvature has moved by more than
    /// `refreshRatio` (confident rows), not where it has not (the start, made for 1/K; near it),
    /// and not again at the point it was remade at.
    @Test func refreshesWhereTheCurvatureHasMoved() throws {
        let data = try Self.skewedSet(rows: 40, columns: 5, classes: 3, offset: 3, seed: 2)
        let objective = SoftmaxObjective(data: data, l2Strength: 0.01, labelSmoothing: 0)
        let solver = PreconditionedObjective(objective, options: SoftmaxRegressionOptions(l2Strength: 0.01))
        var random = SplitMix64(seed: 8)
        let direction = (0..<objective.parameterCount).map { _ in Double.random(in: -1...1, using: &random) }
        var gradient = [Double](repeating: 0, count: direction.count)
        func refreshes(at point: [Double]) -> Bool {
            _ = point.withUnsafeBufferPointer { solver.evaluate($0.baseAddress!, gradient: &gradient) }
            return solver.shouldRefresh()
        }
        #expect(!refreshes(at: direction.map { _ in 0 }))
        #expect(!refreshes(at: direction.map { 1e-3 * $0 }))
        var confident = direction.map { 100 * $0 }
        let curvatures = confident.withUnsafeBufferPointer {
            objective.curvatures(at: solver.modelParameters($0.baseAddress!))
        }
        #expect(curvatures.reduce(0, +) / 40 < 1 / (3 * PreconditionedObjective.refreshRatio))
        #expect(refreshes(at: confident))
        confident.withUnsafeMutableBufferPointer { solver.refresh($0.baseAddress!) }
        #expect(!refreshes(at: confident))
    }

    /// Fewer photos than features, as a small training folder over an extractor: C is singular.
    /// A tiny penalty must still give the optimum: the objective's minimum grows with λ, and the
    /// weights hardly change below λ = 1e-10. Before the ridge's floor, λ = 1e-14 ... 1e-9
    /// "converged" to objectives above the one at λ = 0, with weights magnified off the rows'
    /// directions (on 24 photos of 1,024 features: validation accuracy 0.08 against 0.92).
    @Test func tinyPenaltiesWithFewerRowsThanFeatures() throws {
        let data = try Self.skewedSet(rows: 12, columns: 40, classes: 3, offset: 2, seed: 4)
        var objectives: [Double] = []
        var norms: [Double] = []
        for l2 in [1e-14, 1e-12, 1e-10, 1e-8, 1e-6] {
            let fit = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: l2, gradientTolerance: 1e-6))
            #expect(fit.stopReason == .converged, "λ \(l2): \(fit.stopReason)")
            objectives.append(fit.objective)
            norms.append(SoftmaxRegressionTests.norm(fit.model.weights.values))
        }
        for (weaker, stronger) in zip(objectives, objectives.dropFirst()) {
            #expect(weaker <= stronger * (1 + 1e-6) + 1e-12, "objectives \(objectives)")
        }
        // Where the penalty is too small to matter, so is its effect on the weights.
        #expect(norms[0...2].allSatisfy { abs($0 - norms[2]) <= 1e-3 * norms[2] }, "‖W‖ \(norms)")
    }

    /// Columns spread over four orders of magnitude around a mean of 20: the fit still reaches
    /// the optimum (stationary in (W, b)) in 28 iterations (in (W, b) as they are, L-BFGS had
    /// not converged after 10,000).
    @Test func skewedFeaturesConvergeQuickly() throws {
        let data = try Self.skewedSet(rows: 200, columns: 12, classes: 4, offset: 20, seed: 7)
        let fit = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: 1e-3, gradientTolerance: 1e-9))
        #expect(fit.stopReason == .converged)
        #expect(fit.iterations <= 100, "\(fit.iterations) iterations")
        let parameters = fit.model.weights.values + fit.model.bias
        #expect(fit.gradientNorm <= 1e-9 * max(1, SoftmaxRegressionTests.norm(parameters)))
    }
}
