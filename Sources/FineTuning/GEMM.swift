import CBLAS

/// The engine's single matrix product: OpenBLAS's `cblas_sgemm` (float32, row-major).
enum GEMM {
    /// C = op(A) · op(B) (+ C when `accumulate`), where op(A) is m × k, op(B) is k × n and C is m × n.
    /// With `transposeA`, A is stored k × m; with `transposeB`, B is stored n × k.
    /// Without `accumulate`, C's old values are not read.
    static func multiply(
        _ a: UnsafePointer<Float>, transposeA: Bool = false, _ b: UnsafePointer<Float>, transposeB: Bool = false,
        into c: UnsafeMutablePointer<Float>, m: Int, n: Int, k: Int, accumulate: Bool
    ) {
        guard m > 0, n > 0 else { return }
        guard k > 0 else {
            if !accumulate { c.update(repeating: 0, count: m * n) }
            return
        }
        cblas_sgemm(
            CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
            blasint(m), blasint(n), blasint(k), 1, a, blasint(transposeA ? m : k), b, blasint(transposeB ? k : n),
            accumulate ? 1 : 0, c, blasint(n))
    }
}
