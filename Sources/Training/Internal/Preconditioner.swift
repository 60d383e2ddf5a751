/// The change of variables the fit's L-BFGS works in: W = W̃ L⁻¹ and b = c − W μ, where
/// L Lᵀ = C + max(λ / w̄, `ridgeFloor` · tr(C) / D) I, with C and μ the features' covariance and mean each row weighted by
/// its curvature wᵢ = (1 − Σ_c pᵢ_c²) / (K − 1) at some point (`FeatureMoments`), w̄ the mean
/// curvature, λ the penalty.
///
/// Why: the objective's Hessian is about w̄ (C + (λ / w̄) I) ⊗ (I − 11ᵀ/K) in W (centred
/// features) and w̄ (I − 11ᵀ/K) in b, each row's class block approximated by a multiple of the
/// identity. In (W̃, c) both blocks are w̄ times the identity, and the bias no longer trades
/// off against the weights through the features' mean. At the start every p = 1/K: wᵢ = 1/K,
/// and L Lᵀ = Σ + K λ I with Σ the plain covariance. As the fit grows confident, most rows'
/// curvature falls and the fit refreshes the preconditioner at its current point. The
/// objective is the same function of (W, b): only the path to its one minimum changes.
struct Preconditioner {
    /// μ, D values.
    private let mean: [Double]
    /// L, D × D, lower triangular, column-major (LAPACK's).
    private let factor: [Double]
    private let classes: Int

    /// The preconditioner of `moments` (weighted by curvature, of mean `meanCurvature` > 0) for
    /// penalty `l2Strength` and `classes` classes; nil when λ = 0 with a singular C (no
    /// Cholesky factor: the fit works in (W, b)).
    init?(_ moments: FeatureMoments, meanCurvature: Double, l2Strength: Double, classes: Int) {
        let d = moments.mean.count
        var matrix = moments.covariance
        var trace = 0.0
        for i in 0..<d { trace += matrix[i * d + i] }
        let ridge = max(l2Strength / meanCurvature, Self.ridgeFloor * trace / Double(d))
        for i in 0..<d { matrix[i * d + i] += ridge }
        let factored = matrix.withUnsafeMutableBufferPointer { BLAS.choleskyFactor($0.baseAddress!, n: d) }
        guard factored, ridge.isFinite else { return nil }
        mean = moments.mean
        factor = matrix
        self.classes = classes
    }

    /// The least ridge, as a share of C's mean eigenvalue. With fewer photos than features C is
    /// singular, its null space holding only rounding; a ridge of a tiny λ / w̄ alone (λ = 1e-12)
    /// left L⁻¹ to magnify that rounding 10¹² times into weights on directions no training photo
    /// has, which no longer fell below the gradient test's relative tolerance: the fit stopped,
    /// "converged", far from the optimum (validation accuracy 0.08 against 0.92 at λ = 0).
    static let ridgeFloor = 1e-6

    private var features: Int { mean.count }

    /// (W, b) of the solver's (W̃, c): both K × (D + 1) values, W row-major then b.
    func parameters(_ preconditioned: UnsafePointer<Double>, into parameters: UnsafeMutablePointer<Double>) {
        let (k, d) = (classes, features)
        parameters.update(from: preconditioned, count: k * (d + 1))
        // W row-major (K × D) is Wᵀ column-major: Wᵀ = L⁻ᵀ W̃ᵀ.
        factor.withUnsafeBufferPointer { BLAS.solveLower($0.baseAddress!, n: d, transpose: true, parameters, columns: k) }
        shiftBias(parameters, by: -1)
    }

    /// The solver's (W̃, c) of (W, b), in place: W̃ = W L, c = b + W μ.
    func precondition(parameters: UnsafeMutablePointer<Double>) {
        let (k, d) = (classes, features)
        shiftBias(parameters, by: 1)
        // W̃ᵀ = Lᵀ Wᵀ, Wᵀ being W row-major read column-major.
        factor.withUnsafeBufferPointer { BLAS.multiplyLowerTransposed($0.baseAddress!, n: d, parameters, columns: k) }
    }

    /// Adds `sign` · W μ to b, for (W, b) in `parameters`.
    private func shiftBias(_ parameters: UnsafeMutablePointer<Double>, by sign: Double) {
        let (k, d) = (classes, features)
        for c in 0..<k {
            var shift = 0.0
            for j in 0..<d { shift += parameters[c * d + j] * mean[j] }
            parameters[k * d + c] += sign * shift
        }
    }

    /// Turns ∇L in (W, b) into ∇L in (W̃, c), in place: ∇_c = ∇_b and ∇_W̃ = (∇_W − ∇_b μᵀ) L⁻ᵀ.
    func precondition(gradient: UnsafeMutablePointer<Double>) {
        let (k, d) = (classes, features)
        for c in 0..<k {
            let biasGradient = gradient[k * d + c]
            for j in 0..<d { gradient[c * d + j] -= biasGradient * mean[j] }
        }
        // (∇_W̃)ᵀ = L⁻¹ (∇_W − ∇_b μᵀ)ᵀ, the rows of ∇_W being the columns of its transpose.
        factor.withUnsafeBufferPointer { BLAS.solveLower($0.baseAddress!, n: d, transpose: false, gradient, columns: k) }
    }
}
