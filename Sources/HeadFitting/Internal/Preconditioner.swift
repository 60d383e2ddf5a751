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
    /// L⁻¹, D × D, lower triangular, column-major (its upper triangle 0). Read row-major, the
    /// same values are U = L⁻ᵀ, whose row j is L⁻¹'s column j.
    private let inverse: [Double]
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
        let inverted = matrix.withUnsafeMutableBufferPointer {
            BLAS.choleskyFactor($0.baseAddress!, n: d) && BLAS.invertLower($0.baseAddress!, n: d)
        }
        guard inverted, ridge.isFinite else { return nil }
        // The upper triangle still holds C's: the products below read whole column blocks.
        for column in 1..<max(d, 1) { for row in 0..<column { matrix[row + column * d] = 0 } }
        mean = moments.mean
        inverse = matrix
        self.classes = classes
    }

    /// The least ridge, as a share of C's mean eigenvalue. With fewer photos than features C is
    /// singular, its null space holding only rounding; a ridge of a tiny λ / w̄ alone (λ = 1e-12)
    /// left L⁻¹ to magnify that rounding 10¹² times into weights on directions no training photo
    /// has, which no longer fell below the gradient test's relative tolerance: the fit stopped,
    /// "converged", far from the optimum (validation accuracy 0.08 against 0.92 at λ = 0).
    static let ridgeFloor = 1e-6

    /// Columns of W per matrix product, so that each stays below OpenBLAS's size for threading
    /// it (`Lanes`: 10 classes × 16 × 1,024 is 163,840).
    static let blockColumns = 16

    private var features: Int { mean.count }

    /// (W, b) of the solver's (W̃, c): both K × (D + 1) values, W row-major then b. W = W̃ L⁻¹,
    /// made a block of columns at a time by the lanes: W[:, j] = Σ_{i ≥ j} W̃[:, i] (L⁻¹)ᵢⱼ.
    func parameters(_ preconditioned: UnsafePointer<Double>, into parameters: UnsafeMutablePointer<Double>) {
        let (k, d) = (classes, features)
        inverse.withUnsafeBufferPointer { inverse in
            forEachColumnBlock { columns in
                // W̃[:, j0...] Uᵀ, U's rows j0..<j1 from column j0 on.
                let first = columns.lowerBound
                BLAS.multiply(
                    transposeB: true, m: k, n: columns.count, k: d - first, leading: d, preconditioned + first,
                    inverse.baseAddress! + first * d + first, beta: 0, into: parameters + first)
            }
        }
        (parameters + k * d).update(from: preconditioned + k * d, count: k)
        shiftBias(parameters, by: -1)
    }

    /// The solver's (W̃, c) of (W, b), in place: W̃ = W L, c = b + W μ. W̃ᵀ = Lᵀ Wᵀ is solved
    /// from (L⁻¹)ᵀ W̃ᵀ = Wᵀ, Wᵀ being W row-major read column-major.
    func precondition(parameters: UnsafeMutablePointer<Double>) {
        let (k, d) = (classes, features)
        shiftBias(parameters, by: 1)
        inverse.withUnsafeBufferPointer {
            BLAS.solveLower($0.baseAddress!, n: d, transpose: true, parameters, columns: k)
        }
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

    /// ∇L in (W̃, c) of ∇L in (W, b) = `gradient` (which it overwrites): ∇_c = ∇_b and
    /// ∇_W̃ = (∇_W − ∇_b μᵀ) L⁻ᵀ, made a block of columns at a time by the lanes:
    /// ∇_W̃[:, i] = Σ_{j ≤ i} G[:, j] (L⁻¹)ᵢⱼ.
    func precondition(gradient: UnsafeMutablePointer<Double>, into preconditioned: UnsafeMutablePointer<Double>) {
        let (k, d) = (classes, features)
        for c in 0..<k {
            let biasGradient = gradient[k * d + c]
            for j in 0..<d { gradient[c * d + j] -= biasGradient * mean[j] }
        }
        inverse.withUnsafeBufferPointer { inverse in
            forEachColumnBlock { columns in
                // G[:, ..<i1] U[..<i1, i0..<i1].
                BLAS.multiply(
                    m: k, n: columns.count, k: columns.upperBound, leading: d, gradient,
                    inverse.baseAddress! + columns.lowerBound, beta: 0, into: preconditioned + columns.lowerBound)
            }
        }
        (preconditioned + k * d).update(from: gradient + k * d, count: k)
    }

    /// Calls `body` with each block of `blockColumns` columns of W, the blocks dealt to the lanes
    /// in turn (their costs grow along the triangle); each writes only its own columns.
    private func forEachColumnBlock(_ body: (Range<Int>) -> Void) {
        let d = features
        let blocks = (d + Self.blockColumns - 1) / Self.blockColumns
        Lanes.run { lane in
            for block in stride(from: lane, to: blocks, by: Lanes.count) {
                body(block * Self.blockColumns..<min((block + 1) * Self.blockColumns, d))
            }
        }
    }
}
