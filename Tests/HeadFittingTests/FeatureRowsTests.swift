import Foundation
import TasksCommon
import Testing

@testable import HeadFitting

/// Float32 feature rows go through the fit as they are (`TrainingSet(rows:)`), read in blocks
/// of 256 converted to double: the objective over several blocks is the one computed directly,
/// and the same as for the same values given as a matrix of doubles, to the last bit.
struct FeatureRowsTests {
    /// 600 rows (three blocks) of 7 seeded features in [0, 6), 3 classes, and a seeded model.
    static func problem() throws -> (rows: [[Float]], labels: [Int], model: SoftmaxRegression) {
        var random = SplitMix64(seed: 11)
        let rows = (0..<600).map { _ in (0..<7).map { _ in Float.random(in: 0..<6, using: &random) } }
        let labels = (0..<600).map { _ in Int.random(in: 0..<3, using: &random) }
        let weights = (0..<21).map { _ in Double.random(in: -0.5...0.5, using: &random) }
        let model = try SoftmaxRegression(weights: Matrix(rows: 3, columns: 7, values: weights), bias: [0.1, -0.2, 0.3])
        return (rows, labels, model)
    }

    @Test func blocksOfFloatRowsGiveTheDirectObjective() throws {
        let (rows, labels, model) = try Self.problem()
        let options = SoftmaxRegressionOptions(l2Strength: 0.01)
        let floats = try model.objective(on: TrainingSet(rows: rows, labels: labels, classCount: 3), options: options)
        let doubles = try model.objective(
            on: TrainingSet(features: Matrix(rows: rows), labels: labels, classCount: 3), options: options)
        #expect(floats == doubles, "float rows and a double matrix give the same bits")
        // Directly: the mean cross-entropy plus (λ/2)‖W‖².
        var loss = 0.0
        for (row, label) in zip(rows, labels) {
            let logits = (0..<3).map { c in
                zip(model.weights.row(c), row).reduce(model.bias[c]) { $0 + $1.0 * Double($1.1) }
            }
            let largest = logits.max()!
            loss += log(logits.reduce(0) { $0 + exp($1 - largest) }) + largest - logits[label]
        }
        let penalty = 0.5 * 0.01 * model.weights.values.reduce(0) { $0 + $1 * $1 }
        let expected = loss / 600 + penalty
        #expect(abs(floats.value - expected) <= 1e-12 * expected, "\(floats.value) vs \(expected)")
    }

    @Test func raggedAndNonFiniteRowsAreRefused() {
        #expect(throws: TasksError.self) { try TrainingSet(rows: [[1, 2], [3]], labels: [0, 1], classCount: 2) }
        #expect(throws: TrainingErrors.nonFinite(row: 1, column: 0, value: .infinity)) {
            try TrainingSet(rows: [[1, 2], [.infinity, 3]], labels: [0, 1], classCount: 2)
        }
    }
}
