import CLBFGS

/// The variables of one L-BFGS run, allocated as liblbfgs asks (`lbfgs_malloc`) and freed with it.
final class LBFGSVariables {
    /// How many variables.
    let count: Int
    /// The variables; +1 from `lbfgs_malloc`, we own it and free it in `deinit`.
    let pointer: UnsafeMutablePointer<Double>

    /// `count` zeros, or nil when `lbfgs_malloc` fails. `count` must fit an `Int32`.
    init?(count: Int) {
        guard let pointer = lbfgs_malloc(Int32(count)) else { return nil }
        pointer.update(repeating: 0, count: count)
        self.count = count
        self.pointer = pointer
    }

    deinit { lbfgs_free(pointer) }
}

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
        let evaluate: (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double
        let progress: (TrainingProgress) -> Bool
        var iterations = 0

        init(
            evaluate: @escaping (UnsafePointer<Double>, UnsafeMutablePointer<Double>) -> Double,
            progress: @escaping (TrainingProgress) -> Bool
        ) {
            self.evaluate = evaluate
            self.progress = progress
        }
    }
}
