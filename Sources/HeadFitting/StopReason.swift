/// Why a fit stopped. Each reason leaves a usable model: the last point L-BFGS accepted.
package enum StopReason: Sendable, Equatable, CustomStringConvertible {
    /// The gradient test passed: ‖g‖ ≤ `gradientTolerance` · max(1, ‖(W, b)‖) (liblbfgs
    /// `LBFGS_SUCCESS`, or `LBFGS_ALREADY_MINIMIZED` at the starting point).
    case converged
    /// The objective-decrease test passed (`objectiveDecreaseTolerance` > 0; liblbfgs `LBFGS_STOP`).
    case objectiveStalled
    /// `maxIterations` iterations were done first (liblbfgs `LBFGSERR_MAXIMUMITERATION`).
    case maximumIterations
    /// The line search found no step that lowers the objective enough (the status says how).
    /// Close to the optimum with a tolerance below what double precision resolves this is the
    /// usual end (`LBFGSStatus.roundingError`): check `SoftmaxRegressionFit.gradientNorm`.
    case lineSearchFailed(LBFGSStatus)

    /// Whether a convergence test passed (`converged` or `objectiveStalled`).
    package var isConvergence: Bool {
        switch self {
        case .converged, .objectiveStalled: true
        case .maximumIterations, .lineSearchFailed: false
        }
    }

    /// In words: `"converged"`, `"objective stalled"`, `"maximum iterations"`, or
    /// `"line search failed: <status>"`.
    package var description: String {
        switch self {
        case .converged: "converged"
        case .objectiveStalled: "objective stalled"
        case .maximumIterations: "maximum iterations"
        case .lineSearchFailed(let status): "line search failed: \(status)"
        }
    }
}
