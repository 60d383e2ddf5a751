/// The training objective at some parameters, and how steep it is there.
package struct ObjectiveValue: Sendable, Equatable {
    /// L(W, b): mean cross-entropy plus (λ/2) ‖W‖²_F (≥ 0).
    package let value: Double
    /// The Euclidean norm of the gradient of L in (W, b): 0 at the minimum.
    package let gradientNorm: Double
}
