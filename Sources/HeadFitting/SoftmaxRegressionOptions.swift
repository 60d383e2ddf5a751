import TasksCommon

/// How `SoftmaxRegression.fit` trains: the penalty, label smoothing, and when L-BFGS stops.
///
/// The fit minimizes, over W (K × D) and b (K),
///
///     L(W, b) = (1/N) Σᵢ CE(softmax(W xᵢ + b), tᵢ) + (λ/2) ‖W‖²_F
///
/// with tᵢ = (1 − ε) · onehot(yᵢ) + ε / K, λ = `l2Strength` and ε = `labelSmoothing`. The bias is
/// not penalized. scikit-learn's `LogisticRegression(C:)` on N examples is λ = 1 / (C · N).
package struct SoftmaxRegressionOptions: Sendable, Equatable {
    /// λ ≥ 0, the L2 penalty on the weights (not the bias), per example: the objective adds
    /// (λ/2) ‖W‖²_F to the mean cross-entropy. 0 is allowed, but then separable data have no
    /// minimum (the weights grow until `maxIterations`). Default 1e-3.
    package var l2Strength: Double
    /// ε in [0, 1): each target is (1 − ε) on the labelled class plus ε / K on every class.
    /// Default 0 (one-hot targets).
    package var labelSmoothing: Double
    /// The most L-BFGS iterations (≥ 1); reaching it stops with `StopReason.maximumIterations`.
    /// Default 10,000.
    package var maxIterations: Int
    /// liblbfgs's `epsilon` (≥ 0): the fit has converged when the gradient of L in (W, b) has a
    /// Euclidean norm ‖g‖ ≤ `gradientTolerance` · max(1, ‖(W, b)‖). The objective is then within
    /// about ‖g‖² / (2λ) of its minimum and the parameters within ‖g‖ / λ. Default 1e-8.
    package var gradientTolerance: Double
    /// liblbfgs's `delta` (≥ 0): with a value > 0, the fit also stops (`StopReason.objectiveStalled`)
    /// when the objective fell by less than this fraction of itself over the last
    /// `objectiveDecreaseWindow` iterations: (L₋ₚ − L) / L < δ. Default 0 (off: the gradient test
    /// alone decides).
    package var objectiveDecreaseTolerance: Double
    /// liblbfgs's `past` (≥ 1): the window, in iterations, of the objective-decrease test. Default 10.
    package var objectiveDecreaseWindow: Int
    /// liblbfgs's `m` (≥ 1): how many past steps approximate the inverse Hessian. Default 10 (as
    /// SciPy's L-BFGS-B, which scikit-learn uses).
    package var historySize: Int

    /// Options with the given values; see each property for its meaning and range.
    package init(
        l2Strength: Double = 1e-3, labelSmoothing: Double = 0, maxIterations: Int = 10_000,
        gradientTolerance: Double = 1e-8, objectiveDecreaseTolerance: Double = 0, objectiveDecreaseWindow: Int = 10,
        historySize: Int = 10
    ) {
        self.l2Strength = l2Strength
        self.labelSmoothing = labelSmoothing
        self.maxIterations = maxIterations
        self.gradientTolerance = gradientTolerance
        self.objectiveDecreaseTolerance = objectiveDecreaseTolerance
        self.objectiveDecreaseWindow = objectiveDecreaseWindow
        self.historySize = historySize
    }

    /// Throws unless every option is in its range.
    /// - Throws: `TasksError` invalidArgument naming the first option out of range.
    package func validate() throws(TasksError) {
        guard l2Strength.isFinite, l2Strength >= 0 else {
            throw TrainingErrors.option("l2Strength", l2Strength, mustBe: "a finite number >= 0")
        }
        guard labelSmoothing >= 0, labelSmoothing < 1 else {
            throw TrainingErrors.option("labelSmoothing", labelSmoothing, mustBe: "in [0, 1)")
        }
        guard maxIterations >= 1, maxIterations <= Int32.max else {
            throw TrainingErrors.option("maxIterations", maxIterations, mustBe: "in 1...\(Int32.max)")
        }
        guard gradientTolerance.isFinite, gradientTolerance >= 0 else {
            throw TrainingErrors.option("gradientTolerance", gradientTolerance, mustBe: "a finite number >= 0")
        }
        guard objectiveDecreaseTolerance.isFinite, objectiveDecreaseTolerance >= 0 else {
            throw TrainingErrors.option("objectiveDecreaseTolerance", objectiveDecreaseTolerance, mustBe: "a finite number >= 0")
        }
        guard objectiveDecreaseWindow >= 1, objectiveDecreaseWindow <= Int32.max else {
            throw TrainingErrors.option("objectiveDecreaseWindow", objectiveDecreaseWindow, mustBe: "in 1...\(Int32.max)")
        }
        guard historySize >= 1, historySize <= Int32.max else {
            throw TrainingErrors.option("historySize", historySize, mustBe: "in 1...\(Int32.max)")
        }
    }
}
