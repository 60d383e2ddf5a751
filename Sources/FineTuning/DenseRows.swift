/// The affine map shared by fully connected layers and 1 × 1 convolutions: each of `rows`
/// input rows (`inputs` floats) times Wᵀ plus b, where W is `[outputs, inputs]` (TFLite's layout
/// for both) — one GEMM for the whole batch.
enum DenseRows {
    /// Y[rows, outputs] = X[rows, inputs] · Wᵀ + b.
    static func forward(
        _ x: UnsafePointer<Float>, rows: Int, inputs: Int, outputs: Int, weights: UnsafePointer<Float>,
        bias: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>
    ) {
        // The bias goes in first so that the GEMM adds the product onto it (no second pass).
        for r in 0..<rows { (y + r * outputs).update(from: bias, count: outputs) }
        GEMM.multiply(x, weights, transposeB: true, into: y, m: rows, n: outputs, k: inputs, accumulate: true)
    }

    /// From dY[rows, outputs]: dW = dYᵀ · X and db = column sums of dY (both overwritten), and,
    /// when `inputGradient` is given, dX += dY · W.
    static func backward(
        _ dy: UnsafePointer<Float>, x: UnsafePointer<Float>, rows: Int, inputs: Int, outputs: Int,
        weights: UnsafePointer<Float>, weightGradient: UnsafeMutablePointer<Float>,
        biasGradient: UnsafeMutablePointer<Float>, inputGradient: UnsafeMutablePointer<Float>?
    ) {
        GEMM.multiply(dy, transposeA: true, x, into: weightGradient, m: outputs, n: inputs, k: rows, accumulate: false)
        sumRows(dy, rows: rows, columns: outputs, into: biasGradient)
        if let inputGradient {
            GEMM.multiply(dy, weights, into: inputGradient, m: rows, n: inputs, k: outputs, accumulate: true)
        }
    }

    /// sums[c] = Σ_r values[r, c] (overwritten): a bias's gradient.
    static func sumRows(_ values: UnsafePointer<Float>, rows: Int, columns: Int, into sums: UnsafeMutablePointer<Float>) {
        sums.update(repeating: 0, count: columns)
        for r in 0..<rows {
            let row = values + r * columns
            for c in 0..<columns { sums[c] += row[c] }
        }
    }
}
