import CBLAS

/// The BLAS calls of the Training target, in one place. Sizes are `Int`s checked by the callers
/// to fit BLAS's 32-bit `blasint` (`TrainingSet` and `SoftmaxRegression` refuse larger ones).
enum BLAS {
    /// C = alpha · op(A) · op(B) + beta · C for row-major matrices, where op(A) is m × k, op(B) is
    /// k × n and C is m × n. With `transposeA`, A is stored k × m (op(A) = Aᵀ); with
    /// `transposeB`, B is stored n × k. With beta = 0, C's old values are not read.
    ///
    /// All three buffers are borrowed for the call. The corresponding C function is `cblas_dgemm`.
    static func multiply(
        transposeA: Bool = false, transposeB: Bool = false, m: Int, n: Int, k: Int, alpha: Double = 1,
        _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, beta: Double, into c: UnsafeMutablePointer<Double>
    ) {
        cblas_dgemm(
            CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
            blasint(m), blasint(n), blasint(k), alpha, a, blasint(transposeA ? m : k), b, blasint(transposeB ? k : n),
            beta, c, blasint(n))
    }
}
