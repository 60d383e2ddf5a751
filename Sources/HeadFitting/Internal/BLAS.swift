import CBLAS

/// The BLAS calls of the Training target, in one place. Sizes are `Int`s checked by the callers
/// to fit BLAS's 32-bit `blasint` (`TrainingSet` and `SoftmaxRegression` refuse larger ones).
enum BLAS {
    /// C = alpha · op(A) · op(B) + beta · C for row-major matrices, where op(A) is m × k, op(B) is
    /// k × n and C is m × n. With `transposeA`, A is stored k × m (op(A) = Aᵀ); with
    /// `transposeB`, B is stored n × k. With beta = 0, C's old values are not read. Each matrix's
    /// rows are as long as it is wide, or `leading` values apart for all three (blocks of larger
    /// matrices).
    ///
    /// All three buffers are borrowed for the call. The corresponding C function is `cblas_dgemm`.
    static func multiply(
        transposeA: Bool = false, transposeB: Bool = false, m: Int, n: Int, k: Int, alpha: Double = 1,
        leading: Int? = nil, _ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, beta: Double,
        into c: UnsafeMutablePointer<Double>
    ) {
        cblas_dgemm(
            CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
            blasint(m), blasint(n), blasint(k), alpha, a, blasint(leading ?? (transposeA ? m : k)), b,
            blasint(leading ?? (transposeB ? k : n)), beta, c, blasint(leading ?? n))
    }

    /// C += Aᵀ A for A (rows × columns, row-major): the upper triangle of C (columns × columns,
    /// row-major) only. The corresponding C function is `cblas_dsyrk`.
    static func addGram(_ a: UnsafePointer<Double>, rows: Int, columns: Int, into c: UnsafeMutablePointer<Double>) {
        cblas_dsyrk(
            CblasRowMajor, CblasUpper, CblasTrans, blasint(columns), blasint(rows), 1, a, blasint(columns), 1, c,
            blasint(columns))
    }

    /// Factors the symmetric positive definite n × n matrix in `a` as L Lᵀ, leaving L in its
    /// lower triangle, column-major (LAPACK's layout; for a symmetric matrix either layout is
    /// the same input). Returns false when the matrix is not positive definite (to rounding).
    /// The corresponding LAPACK function is `dpotrf`.
    static func choleskyFactor(_ a: UnsafeMutablePointer<Double>, n: Int) -> Bool {
        var (order, info) = (Int32(n), Int32(0))
        dpotrf_("L", &order, a, &order, &info, 1)
        return info == 0
    }

    /// B ← L⁻¹ B, or L⁻ᵀ B with `transpose`, for L (n × n, lower triangular, column-major, as
    /// `choleskyFactor` leaves it) and B (n × columns, column-major). The corresponding C
    /// function is `cblas_dtrsm`.
    static func solveLower(
        _ l: UnsafePointer<Double>, n: Int, transpose: Bool, _ b: UnsafeMutablePointer<Double>, columns: Int
    ) {
        cblas_dtrsm(
            CblasColMajor, CblasLeft, CblasLower, transpose ? CblasTrans : CblasNoTrans, CblasNonUnit, blasint(n),
            blasint(columns), 1, l, blasint(n), b, blasint(n))
    }

    /// Replaces the n × n lower triangular matrix L in `a` (column-major, as `choleskyFactor`
    /// leaves it) by L⁻¹, also lower triangular; the upper triangle is not read or written.
    /// Returns false when L is singular. The corresponding LAPACK function is `dtrtri`.
    static func invertLower(_ a: UnsafeMutablePointer<Double>, n: Int) -> Bool {
        var (order, info) = (Int32(n), Int32(0))
        dtrtri_("L", "N", &order, a, &order, &info, 1, 1)
        return info == 0
    }
}
