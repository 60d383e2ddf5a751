import CLBFGS

/// Our one call into liblbfgs: `lbfgs()` with Swift closures for the evaluation and progress
/// callbacks.
enum LBFGS {
    /// How a run ended: liblbfgs's status and the iterations it completed.
    struct Outcome {
        /// What `lbfgs()` returned.
        let status: LBFGSStatus
        /// The iterations done (the last `k` the progress callback saw; 0 if none).
        let iterations: Int
    }

    /// Minimizes a function from the current values of `variables`, leaving in them the last
    /// point the solver accepted (liblbfgs reverts a failed line search's trial point).
    /// - Parameters:
    ///   - parameters: liblbfgs's settings (start from `lbfgs_parameter_init`).
    ///   - evaluate: the function's value at x, writing its gradient into g (x and g are
    ///     borrowed for the call, `variables.count` long).
    ///   - progress: called after each iteration; false stops the run with `LBFGSStatus.canceled`.
    /// The corresponding C function is `lbfgs`.
    static func minimize(
        _ variables: LBFGSVariables, parameters: lbfgs_parameter_t,
        evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double,
        progress: (TrainingProgress) -> Bool
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
                            return context.progress(report) ? 0 : LBFGSStatus.canceled.rawValue
                        },
                        Unmanaged.passUnretained(context).toOpaque(), &parameters)
                }
                return Outcome(status: LBFGSStatus(rawValue: status), iterations: context.iterations)
            }
        }
    }

    /// What the C callbacks reach through liblbfgs's `instance` pointer (unretained: `minimize`
    /// keeps it alive for the call).
    private final class Context {
        /// `minimize`'s evaluate closure.
        let evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double
        /// `minimize`'s progress closure.
        let progress: (TrainingProgress) -> Bool
        /// The last iteration number the progress callback was given.
        var iterations = 0

        /// A context for one run; the closures must not outlive `minimize`.
        init(
            evaluate: @escaping (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double,
            progress: @escaping (TrainingProgress) -> Bool
        ) {
            self.evaluate = evaluate
            self.progress = progress
        }
    }
}
