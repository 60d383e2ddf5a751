/// Where a fit stands after an L-BFGS iteration: what a progress display shows.
package struct TrainingProgress: Sendable, Equatable {
    /// The iterations done so far (1 after the first).
    package let iteration: Int
    /// L(W, b) at the current parameters (mean cross-entropy plus the penalty; ≥ 0).
    package let objective: Double
    /// The Euclidean norm of the gradient of L in (W, b) at the current parameters.
    package let gradientNorm: Double

    /// A progress report.
    package init(iteration: Int, objective: Double, gradientNorm: Double) {
        self.iteration = iteration
        self.objective = objective
        self.gradientNorm = gradientNorm
    }
}
