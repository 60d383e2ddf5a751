import Foundation

/// L(W, b) and its gradient for one training set, over the flat parameter vector
/// θ = (W row-major, K × D, then b, K) that liblbfgs moves. Not `Sendable`: it keeps scratch
/// matrices between evaluations; one fit uses it from one thread (each evaluation works on the
/// `parts` of the rows at once, on threads of its own, and waits for them).
final class SoftmaxObjective {
    /// The rows one thread of an evaluation works on, with its scratch matrices and its share
    /// of the gradient.
    final class Part {
        let rows: Range<Int>
        /// A block's logits, then its residuals (P − T) / N: `FeatureRows.blockRows × K`.
        var logits: [Double]
        /// A block of float32 rows converted to double (empty for double features).
        var features: [Double] = []
        /// Σ over the part's rows of ∇_W and ∇_b of the cross-entropy (without the penalty).
        var gradient: [Double]
        var crossEntropy = 0.0

        init(rows: Range<Int>, classes: Int, parameters: Int) {
            self.rows = rows
            logits = [Double](repeating: 0, count: min(rows.count, FeatureRows.blockRows) * classes)
            gradient = [Double](repeating: 0, count: parameters)
        }
    }

    /// The examples, labels and class count.
    let data: TrainingSet
    /// λ, the penalty on ‖W‖²_F / 2.
    let l2Strength: Double
    /// ε, the label smoothing.
    let labelSmoothing: Double
    /// The rows in at most `partCount` runs of whole blocks, in order.
    private let parts: [Part]
    /// How many times `evaluate` ran.
    private(set) var evaluations = 0

    /// The objective of `data` with penalty `l2Strength` and smoothing `labelSmoothing`
    /// (both already checked).
    init(data: TrainingSet, l2Strength: Double, labelSmoothing: Double) {
        self.data = data
        self.l2Strength = l2Strength
        self.labelSmoothing = labelSmoothing
        let blocks = (data.count + FeatureRows.blockRows - 1) / FeatureRows.blockRows
        let perPart = (blocks + Self.partCount - 1) / Self.partCount
        parts = stride(from: 0, to: data.count, by: perPart * FeatureRows.blockRows).map { start in
            Part(
                rows: start..<min(start + perPart * FeatureRows.blockRows, data.count), classes: data.classCount,
                parameters: data.classCount * (data.featureCount + 1))
        }
    }

    /// The threads of an evaluation: the machine's 2 cores (fixed, not the machine's count, so
    /// that the sums, and so a fit, are the same on every machine).
    static let partCount = 2

    /// K × (D + 1), the length of θ.
    var parameterCount: Int { data.classCount * (data.featureCount + 1) }

    /// L at θ; writes ∇L at θ into `gradient`. Both buffers hold `parameterCount` values and are
    /// borrowed for the call.
    ///
    /// With Z = X Wᵀ + 1 bᵀ (N × K, `cblas_dgemm`), P = softmax of each row of Z, T the smoothed
    /// one-hot targets, and R = (P − T) / N: L = (1/N) Σᵢ Σ_c T_ic (logsumexp(Zᵢ) − Z_ic) +
    /// (λ/2) ‖W‖², ∇_W L = Rᵀ X + λ W (`cblas_dgemm`), ∇_b L = the column sums of R. Each row is
    /// shifted by its largest logit, and log(Σ exp) is taken as log1p of the other classes' terms,
    /// so that a confident row keeps its small loss and residual to full precision.
    ///
    /// The rows go in blocks of `FeatureRows.blockRows`: each block's logits, residuals and
    /// share of ∇_W while its features are in cache (float32 rows are converted per block), the
    /// `parts` on threads of their own (`SoftmaxRegression.fit` runs BLAS on one thread per
    /// call meanwhile: on 3,068 × 1,024 × 10 its own two threads cut an evaluation from 8.3 to
    /// 7.7 ms, and spin when the machine is busy).
    func evaluate(_ parameters: UnsafePointer<Double>, gradient: UnsafeMutablePointer<Double>) -> Double {
        evaluations += 1
        let (d, k) = (data.featureCount, data.classCount)
        let shared = Shared(objective: self, parameters: parameters)
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            shared.objective.accumulate(shared.objective.parts[index], at: shared.parameters)
        }
        // ∇ = λ (W, 0) + the parts' sums, added in order.
        for index in 0..<k * d { gradient[index] = l2Strength * parameters[index] }
        (gradient + k * d).update(repeating: 0, count: k)
        var crossEntropy = 0.0
        for part in parts {
            crossEntropy += part.crossEntropy
            for index in 0..<k * (d + 1) { gradient[index] += part.gradient[index] }
        }
        var squaredNorm = 0.0
        for index in 0..<k * d { squaredNorm += parameters[index] * parameters[index] }
        return crossEntropy / Double(data.count) + 0.5 * l2Strength * squaredNorm
    }

    /// What the threads of one evaluation share. `@unchecked Sendable`: during `evaluate` the
    /// objective's data and the parameters are only read, and each thread writes its own `Part`.
    private struct Shared: @unchecked Sendable {
        let objective: SoftmaxObjective
        let parameters: UnsafePointer<Double>
    }

    /// Sums `part`'s cross-entropy and gradient (∇_W and ∇_b, without the penalty) at θ =
    /// `parameters` into it.
    private func accumulate(_ part: Part, at parameters: UnsafePointer<Double>) {
        let (d, k) = (data.featureCount, data.classCount)
        part.crossEntropy = 0
        part.gradient.withUnsafeMutableBufferPointer { partGradient in
            let partGradient = partGradient.baseAddress!
            (partGradient + k * d).update(repeating: 0, count: k)
            forEachBlock(of: part, at: parameters) { block, features, logits in
                part.crossEntropy += residuals(logits, rows: block, biasGradient: partGradient + k * d)
                BLAS.multiply(
                    transposeA: true, m: k, n: d, k: block.count, logits, features,
                    beta: block.lowerBound == part.rows.lowerBound ? 0 : 1, into: partGradient)
            }
        }
    }

    /// Each row's curvature at (W, b) = `parameters`: (1 − Σ_c p_c²) / (K − 1), the mean
    /// eigenvalue of its class block diag(p) − p pᵀ on the directions that change the
    /// probabilities (1/K where every p = 1/K, near 0 where the row is confidently classified).
    func curvatures(at parameters: UnsafePointer<Double>) -> [Double] {
        let k = data.classCount
        var curvatures = [Double](repeating: 0, count: data.count)
        for part in parts {
            forEachBlock(of: part, at: parameters) { block, _, logits in
                for (offset, i) in block.enumerated() {
                    let row = logits + offset * k
                    let largest = row[Self.largest(row, count: k)]
                    var (total, squares) = (0.0, 0.0)
                    for c in 0..<k {
                        let term = exp(row[c] - largest)
                        total += term
                        squares += term * term
                    }
                    curvatures[i] = (1 - squares / (total * total)) / Double(k - 1)
                }
            }
        }
        return curvatures
    }

    /// Calls `body` with each block of `FeatureRows.blockRows` rows of `part`: their range, their
    /// features as doubles (`range.count × D`) and their logits Z = X Wᵀ + 1 bᵀ at (W, b) =
    /// `parameters` (`range.count × K`, which `body` may overwrite), all borrowed for the call.
    private func forEachBlock(
        of part: Part, at parameters: UnsafePointer<Double>,
        _ body: (Range<Int>, UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Void
    ) {
        let (d, k) = (data.featureCount, data.classCount)
        for start in stride(from: part.rows.lowerBound, to: part.rows.upperBound, by: FeatureRows.blockRows) {
            let block = start..<min(start + FeatureRows.blockRows, part.rows.upperBound)
            data.rows.withDoubles(block, scratch: &part.features) { features in
                part.logits.withUnsafeMutableBufferPointer { logits in
                    let logits = logits.baseAddress!
                    Self.logits(
                        features, rows: block.count, columns: d, weights: parameters, bias: parameters + k * d,
                        classes: k, into: logits)
                    body(block, features, logits)
                }
            }
        }
    }

    /// Turns the logits of `rows` (a block, `rows.count × K` from `logits`) into the residuals
    /// (P − T) / N in place, adds their column sums to `biasGradient`, and returns the block's
    /// Σ cross-entropy. Each row is shifted by its largest logit, and log(Σ exp) is taken as
    /// log1p of the other classes' terms, so that a confident row keeps its small loss and
    /// residual to full precision.
    private func residuals(
        _ logits: UnsafeMutablePointer<Double>, rows: Range<Int>, biasGradient: UnsafeMutablePointer<Double>
    ) -> Double {
        let k = data.classCount
        let offTarget = labelSmoothing / Double(k)
        let onTarget = 1 - labelSmoothing + offTarget
        let scale = 1 / Double(data.count)
        var crossEntropy = 0.0
        for (offset, i) in rows.enumerated() {
            let row = logits + offset * k
            let label = data.labels[i]
            let top = Self.largest(row, count: k)
            let largest = row[top]
            let labelShift = row[label] - largest
            var others = 0.0  // Σ over c ≠ top of exp(z_c − z_top)
            var shiftSum = 0.0  // Σ over c of (z_c − z_top)
            for c in 0..<k {
                let shift = row[c] - largest
                shiftSum += shift
                row[c] = c == top ? 1 : exp(shift)
                if c != top { others += row[c] }
            }
            // Σ_c t_c (log Σ exp(shift) − shift_c), with Σ_c t_c = 1.
            crossEntropy += log1p(others) - (offTarget * shiftSum + (1 - labelSmoothing) * labelShift)
            let total = 1 + others
            for c in 0..<k {
                let target = c == label ? onTarget : offTarget
                // p_top − t = (1 − t) − others / total keeps a residual near 0 exact.
                let residual = c == top ? (1 - target) - others / total : row[c] / total - target
                row[c] = residual * scale
                biasGradient[c] += row[c]
            }
        }
        return crossEntropy
    }

    /// Z = X Wᵀ + 1 bᵀ into `logits` (rows × classes), for X (rows × columns), W (classes ×
    /// columns) and b (classes), all row-major and borrowed for the call.
    static func logits(
        _ features: UnsafePointer<Double>, rows: Int, columns: Int, weights: UnsafePointer<Double>,
        bias: UnsafePointer<Double>, classes: Int, into logits: UnsafeMutablePointer<Double>
    ) {
        for row in 0..<rows { (logits + row * classes).update(from: bias, count: classes) }
        BLAS.multiply(transposeB: true, m: rows, n: classes, k: columns, features, weights, beta: 1, into: logits)
    }

    /// The index of the largest of `count` ≥ 1 values (the first, on ties).
    static func largest(_ values: UnsafePointer<Double>, count: Int) -> Int {
        var top = 0
        for index in 1..<count where values[index] > values[top] { top = index }
        return top
    }
}
