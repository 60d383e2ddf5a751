import CLBFGS

/// Our one call into liblbfgs: `lbfgs()` with Swift closures for the evaluation and progress
/// callbacks.
enum LBFGS {
    /// What the progress callback tells the solver after an iteration.
    enum Decision {
        /// Go on.
        case proceed
        /// Stop: the caller's own convergence test passed (the run ends with `LBFGSStatus.success`).
        case converged
        /// Stop with `LBFGSStatus.canceled`.
        case cancel
        /// Stop, to start again from this point (`Outcome.restarts`).
        case restart
    }

    /// How a run ended: liblbfgs's status and the iterations it completed.
    struct Outcome {
        /// What `lbfgs()` returned.
        let status: LBFGSStatus
        /// The iterations done (the last `k` the progress callback saw; 0 if none).
        let iterations: Int
        /// Whether the progress callback stopped the run to restart it.
        let restarts: Bool
    }

    /// Minimizes a function from the current values of `variables`, leaving in them the last
    /// point the solver accepted (liblbfgs reverts a failed line search's trial point).
    /// - Parameters:
    ///   - parameters: liblbfgs's settings (start from `lbfgs_parameter_init`).
    ///   - evaluate: the function's value at x, writing its gradient into g (x and g are
    ///     borrowed for the call, `variables.count` long).
    ///   - progress: called after each iteration, with the point accepted being the last one
    ///     `evaluate` was given; its decision may stop the run.
    /// The corresponding C function is `lbfgs`.
    static func minimize(
        _ variables: LBFGSVariables, parameters: lbfgs_parameter_t,
        evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double,
        progress: (TrainingProgress) -> Decision
    ) -> Outcome {
        withoutActuallyEscaping(evaluate) { evaluate in
            withoutActuallyEscaping(progress) { progress in
                let context = Context(evaluate: evaluate, progress: progress)
                var parameters = parameters
                let status = withExtendedLifetime(context) {
                    lbfgs(
                        Int32(variables.count), variables.pointer, nil,
                        { instance, x, g, _, _ in
                            let context = Unmanaged<Context>.fromOpaque(instance!).takeUnretainedValue()
                            return context.evaluate(x!, g!)
                        },
                        { instance, _, _, fx, _, gnorm, _, _, k, _ in
                            let context = Unmanaged<Context>.fromOpaque(instance!).takeUnretainedValue()
                            context.iterations = Int(k)
                            let report = TrainingProgress(iteration: Int(k), objective: fx, gradientNorm: gnorm)
                            switch context.progress(report) {
                            case .proceed: return 0
                            case .converged:
                                context.converged = true
                                return LBFGSStatus.canceled.rawValue
                            case .cancel: return LBFGSStatus.canceled.rawValue
                            case .restart:
                                context.restarts = true
                                return LBFGSStatus.canceled.rawValue
                            }
                        },
                        Unmanaged.passUnretained(context).toOpaque(), &parameters)
                }
                return Outcome(
                    status: context.converged ? .success : LBFGSStatus(rawValue: status), iterations: context.iterations,
                    restarts: context.restarts)
            }
        }
    }

    /// What the C callbacks reach through liblbfgs's `instance` pointer (unretained: `minimize`
    /// keeps it alive for the call).
    private final class Context {
        /// `minimize`'s evaluate closure.
        let evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double
        /// `minimize`'s progress closure.
        let progress: (TrainingProgress) -> Decision
        /// The last iteration number the progress callback was given.
        var iterations = 0
        /// Whether the progress callback stopped the run as converged, or to restart it.
        var converged = false
        var restarts = false

        /// A context for one run; the closures must not outlive `minimize`.
        init(
            evaluate: @escaping (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double,
            progress: @escaping (TrainingProgress) -> Decision
        ) {
            self.evaluate = evaluate
            self.progress = progress
        }
    }
}
