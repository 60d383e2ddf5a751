/// What `SoftmaxRegression.fit` returns: the model and how the optimization ended.
package struct SoftmaxRegressionFit: Sendable {
    /// The fitted weights (K × D) and bias (K, summing to 0).
    package let model: SoftmaxRegression
    /// L(W, b) at `model`, recomputed after the solver returned (mean cross-entropy plus
    /// (λ/2) ‖W‖²_F; ≥ 0).
    package let objective: Double
    /// The Euclidean norm of the gradient of L in (W, b) at `model`: how far from stationary it is.
    package let gradientNorm: Double
    /// The L-BFGS iterations done.
    package let iterations: Int
    /// The objective-and-gradient evaluations (line-search trials included; the last one, of
    /// `objective` and `gradientNorm`, not).
    package let evaluations: Int
    /// Why the solver stopped.
    package let stopReason: StopReason
}
