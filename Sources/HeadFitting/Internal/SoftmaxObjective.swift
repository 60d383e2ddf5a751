import Foundation

/// L(W, b) and its gradient for one training set, over the flat parameter vector
/// θ = (W row-major, K × D, then b, K) that liblbfgs moves. Not `Sendable`: it keeps scratch
/// buffers between evaluations; one fit uses it from one thread (each evaluation spreads its
/// rows over the `Lanes` and waits for them).
final class SoftmaxObjective {
    /// The examples, labels and class count.
    let data: TrainingSet
    /// λ, the penalty on ‖W‖²_F / 2.
    let l2Strength: Double
    /// ε, the label smoothing.
    let labelSmoothing: Double
    /// One per lane (`Lanes`), each used by one thread at a time.
    private let laneScratch: [Lane]
    /// How many times `evaluate` ran.
    private(set) var evaluations = 0

    /// Rows per matrix product: a block's features stay in the first caches between its two
    /// products, and each product stays below OpenBLAS's size for threading it (`Lanes`; 16 ×
    /// 10 × 1,024 is 163,840). On 3,068 × 1,024 random features of 10 classes (a throwaway
    /// benchmark of the two products, not kept) they took 4.0 ms per evaluation in one lane
    /// (6.3 ms in blocks of 256 rows), 2.6 ms in four; `scripts/training-bench` times whole fits.
    static let blockRows = 16

    /// The objective of `data` with penalty `l2Strength` and smoothing `labelSmoothing`
    /// (both already checked).
    init(data: TrainingSet, l2Strength: Double, labelSmoothing: Double) {
        self.data = data
        self.l2Strength = l2Strength
        self.labelSmoothing = labelSmoothing
        let rows = min(data.count, Self.blockRows)
        laneScratch = (0..<Lanes.count).map { _ in
            Lane(rows: rows, classes: data.classCount, parameters: data.classCount * (data.featureCount + 1))
        }
    }

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
    /// The rows go in blocks of `blockRows`, each block's logits, residuals and share of ∇ made
    /// while its features are in cache (float32 rows are converted per block), the blocks split
    /// into one run of consecutive blocks per lane, whose sums are added in lane order.
    func evaluate(_ parameters: UnsafePointer<Double>, gradient: UnsafeMutablePointer<Double>) -> Double {
        evaluations += 1
        let (n, d, k) = (data.count, data.featureCount, data.classCount)
        forEachLane { lane, blocks in
            lane.crossEntropy = 0
            lane.gradient.update(repeating: 0, count: k * (d + 1))
            forEachBlock(blocks, lane: lane, at: parameters) { block, features, logits in
                lane.crossEntropy += residuals(logits, rows: block, biasGradient: lane.gradient + k * d)
                BLAS.multiply(
                    transposeA: true, m: k, n: d, k: block.count, logits, features, beta: 1, into: lane.gradient)
            }
        }
        var crossEntropy = 0.0
        // ∇_W = λ W + the lanes' Rᵀ X in order, ∇_b = the lanes' column sums of R.
        for index in 0..<k * d { gradient[index] = l2Strength * parameters[index] }
        (gradient + k * d).update(repeating: 0, count: k)
        for lane in laneScratch {
            crossEntropy += lane.crossEntropy
            for index in 0..<k * (d + 1) { gradient[index] += lane.gradient[index] }
        }
        var squaredNorm = 0.0
        for index in 0..<k * d { squaredNorm += parameters[index] * parameters[index] }
        return crossEntropy / Double(n) + 0.5 * l2Strength * squaredNorm
    }

    /// Each row's curvature at (W, b) = `parameters`: (1 − Σ_c p_c²) / (K − 1), the mean
    /// eigenvalue of its class block diag(p) − p pᵀ on the directions that change the
    /// probabilities (1/K where every p = 1/K, near 0 where the row is confidently classified).
    func curvatures(at parameters: UnsafePointer<Double>) -> [Double] {
        let k = data.classCount
        return [Double](unsafeUninitializedCapacity: data.count) { curvatures, initialized in
            forEachLane { lane, blocks in
                forEachBlock(blocks, lane: lane, at: parameters) { block, _, logits in
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
            initialized = data.count
        }
    }

    /// Runs `body` for each lane with its run of consecutive blocks (indices of `blockRows`-row
    /// blocks), the lanes at once (`Lanes.run`).
    private func forEachLane(_ body: (Lane, Range<Int>) -> Void) {
        let blocks = (data.count + Self.blockRows - 1) / Self.blockRows
        Lanes.run { index in
            body(laneScratch[index], index * blocks / Lanes.count..<(index + 1) * blocks / Lanes.count)
        }
    }

    /// Calls `body` with each block of `blocks` (indices of `blockRows`-row blocks): its rows,
    /// their features as doubles (`rows.count × D`) and their logits Z = X Wᵀ + 1 bᵀ at (W, b) =
    /// `parameters` (`rows.count × K`, which `body` may overwrite), in `lane`'s scratch and
    /// borrowed for the call.
    private func forEachBlock(
        _ blocks: Range<Int>, lane: Lane, at parameters: UnsafePointer<Double>,
        _ body: (Range<Int>, UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Void
    ) {
        let (n, d, k) = (data.count, data.featureCount, data.classCount)
        for index in blocks {
            let block = index * Self.blockRows..<min((index + 1) * Self.blockRows, n)
            data.rows.withDoubles(block, scratch: &lane.features) { features in
                Self.logits(
                    features, rows: block.count, columns: d, weights: parameters, bias: parameters + k * d,
                    classes: k, into: lane.logits)
                body(block, features, lane.logits)
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

extension SoftmaxObjective {
    /// One lane's scratch: a block's logits, the float32 rows converted to double, and its sums.
    /// Each evaluation gives a lane to one thread; the buffers are freed with it.
    private final class Lane: @unchecked Sendable {
        /// A block's logits, then its residuals (P − T) / N: `blockRows × K`.
        let logits: UnsafeMutablePointer<Double>
        /// The lane's ∇_W then ∇_b (K × (D + 1)), without the penalty's term.
        let gradient: UnsafeMutablePointer<Double>
        /// The lane's Σ cross-entropy.
        var crossEntropy = 0.0
        /// A block of float32 rows converted to double (empty for double features).
        var features: [Double] = []

        init(rows: Int, classes: Int, parameters: Int) {
            logits = .allocate(capacity: rows * classes)
            logits.initialize(repeating: 0, count: rows * classes)
            gradient = .allocate(capacity: parameters)
            gradient.initialize(repeating: 0, count: parameters)
        }

        deinit {
            logits.deallocate()
            gradient.deallocate()
        }
    }
}
