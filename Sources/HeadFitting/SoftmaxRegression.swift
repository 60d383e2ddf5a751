import Foundation
import TasksCommon

/// A softmax regression (multinomial logistic regression) classifier head: class scores
/// softmax(W x + b) for a feature vector x (an image embedding).
///
/// W is K × D (one row of weights per class), b has K values. `fit(_:options:progress:)` trains
/// one on labelled embeddings; `probabilities(for:)` and `predictions(for:)` apply it.
/// Matrix products run on OpenBLAS (`cblas_dgemm`). A value type: `Sendable`, safe to share.
package struct SoftmaxRegression: Sendable, Equatable {
    /// W, K × D: row c holds class c's weight for each feature.
    package let weights: Matrix
    /// b, K values: each class's bias (a fitted model's sum to 0: softmax does not change when
    /// the same number is added to every bias).
    package let bias: [Double]

    /// A model from its weights and bias.
    /// - Parameters:
    ///   - weights: K × D, K ≥ 2, D ≥ 1, finite.
    ///   - bias: K finite values.
    /// - Throws: `TasksError` invalidArgument (subject `model`) when the shapes do not match or a
    ///   value is NaN or infinite, or when K × (D + 1) exceeds the 32-bit sizes BLAS takes.
    package init(weights: Matrix, bias: [Double]) throws(TasksError) {
        guard weights.rows >= 2, weights.columns >= 1, bias.count == weights.rows else {
            throw TrainingErrors.modelShape(weights: weights, biasCount: bias.count)
        }
        let (parameters, overflow) = weights.rows.multipliedReportingOverflow(by: weights.columns + 1)
        guard !overflow, parameters <= Int32.max else {
            throw TrainingErrors.tooLarge("parameters (classes × (features + 1))", overflow ? Int.max : parameters)
        }
        if let index = weights.values.firstIndex(where: { !$0.isFinite }) {
            throw TrainingErrors.nonFiniteModel("weights", index: index, value: weights.values[index])
        }
        if let index = bias.firstIndex(where: { !$0.isFinite }) {
            throw TrainingErrors.nonFiniteModel("bias", index: index, value: bias[index])
        }
        self.weights = weights
        self.bias = bias
    }

    /// A model whose values a fit produced (shapes and finiteness known).
    init(fitted weights: Matrix, bias: [Double]) {
        self.weights = weights
        self.bias = bias
    }

    /// K, the number of classes.
    package var classCount: Int { weights.rows }
    /// D, the number of features the model takes.
    package var featureCount: Int { weights.columns }

    /// The class scores before softmax, Z = X Wᵀ + b.
    /// - Parameter features: N × D (D = `featureCount`), finite; N may be 0.
    /// - Returns: N × K logits.
    /// - Throws: `TasksError` invalidArgument (subject `features`) when D is not `featureCount`, a
    ///   feature is NaN or infinite, or N exceeds BLAS's 32-bit sizes.
    package func logits(for features: Matrix) throws(TasksError) -> Matrix {
        guard features.columns == featureCount else {
            throw TrainingErrors.columnMismatch(features.columns, expected: featureCount)
        }
        guard features.rows <= Int32.max else { throw TrainingErrors.tooLarge("rows", features.rows) }
        try features.requireFinite()
        guard features.rows > 0 else { return Matrix(unchecked: 0, columns: classCount, values: []) }
        var values = [Double](repeating: 0, count: features.rows * classCount)
        features.values.withUnsafeBufferPointer { x in
            weights.values.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    values.withUnsafeMutableBufferPointer { z in
                        SoftmaxObjective.logits(
                            x.baseAddress!, rows: features.rows, columns: featureCount, weights: w.baseAddress!,
                            bias: b.baseAddress!, classes: classCount, into: z.baseAddress!)
                    }
                }
            }
        }
        return Matrix(unchecked: features.rows, columns: classCount, values: values)
    }

    /// The probability of each class for each row: softmax(W xᵢ + b), each row in [0, 1] summing
    /// to 1 (computed from the logits less their row maximum, so it never overflows).
    /// - Parameter features: N × D, finite.
    /// - Returns: N × K probabilities.
    /// - Throws: as `logits(for:)`.
    package func probabilities(for features: Matrix) throws(TasksError) -> Matrix {
        let logits = try logits(for: features)
        var values = logits.values
        let k = classCount
        values.withUnsafeMutableBufferPointer { values in
            for row in 0..<logits.rows {
                let z = values.baseAddress! + row * k
                let largest = z[SoftmaxObjective.largest(z, count: k)]
                var total = 0.0
                for c in 0..<k {
                    z[c] = exp(z[c] - largest)
                    total += z[c]
                }
                for c in 0..<k { z[c] /= total }
            }
        }
        return Matrix(unchecked: logits.rows, columns: k, values: values)
    }

    /// The most probable class of each row (the first, on ties).
    /// - Parameter features: N × D, finite.
    /// - Returns: N class indices in `0..<classCount`.
    /// - Throws: as `logits(for:)`.
    package func predictions(for features: Matrix) throws(TasksError) -> [Int] {
        let logits = try logits(for: features)
        return logits.values.withUnsafeBufferPointer { z in
            (0..<logits.rows).map { SoftmaxObjective.largest(z.baseAddress! + $0 * classCount, count: classCount) }
        }
    }

    /// The training objective of this model on `data`, and its gradient norm: how close to the
    /// optimum these weights are (to compare a fit with another solver's).
    /// - Parameters:
    ///   - data: examples with `featureCount` features and `classCount` classes.
    ///   - options: λ (`l2Strength`) and ε (`labelSmoothing`); the other options do not matter.
    /// - Returns: L(W, b) = (1/N) Σᵢ CE(softmax(W xᵢ + b), tᵢ) + (λ/2) ‖W‖²_F and ‖∇L‖ in (W, b).
    /// - Throws: `TasksError` invalidArgument when the data's feature or class count is not the
    ///   model's, or an option is out of range.
    package func objective(on data: TrainingSet, options: SoftmaxRegressionOptions) throws(TasksError) -> ObjectiveValue {
        try options.validate()
        guard data.featureCount == featureCount else {
            throw TrainingErrors.columnMismatch(data.featureCount, expected: featureCount)
        }
        guard data.classCount == classCount else {
            throw TrainingErrors.classMismatch(data.classCount, expected: classCount)
        }
        let objective = SoftmaxObjective(
            data: data, l2Strength: options.l2Strength, labelSmoothing: options.labelSmoothing)
        let parameters = weights.values + bias
        var gradient = [Double](repeating: 0, count: parameters.count)
        let value = parameters.withUnsafeBufferPointer { parameters in
            gradient.withUnsafeMutableBufferPointer { objective.evaluate(parameters.baseAddress!, gradient: $0.baseAddress!) }
        }
        return ObjectiveValue(value: value, gradientNorm: Self.norm(gradient))
    }

    /// The Euclidean norm of `values`.
    static func norm(_ values: [Double]) -> Double {
        values.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }
}
