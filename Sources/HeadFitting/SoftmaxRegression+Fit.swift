import CLBFGS
import TasksCommon

extension SoftmaxRegression {
    /// Trains a model on `data`: minimizes
    ///
    ///     L(W, b) = (1/N) Σᵢ CE(softmax(W xᵢ + b), tᵢ) + (λ/2) ‖W‖²_F
    ///
    /// (targets tᵢ = (1 − ε) · onehot(yᵢ) + ε / K, bias not penalized) over all N examples at
    /// once, with liblbfgs's L-BFGS and More–Thuente line search from W = 0, b = 0, in the
    /// variables of a `Preconditioner` (the features' covariance and mean, when there are at most
    /// `FeatureMoments.largestFeatureCount` of them; remade from the rows' curvature when it has
    /// moved, checked every `curvatureCheckInterval` iterations), the gradient test in (W, b),
    /// each evaluation spread over the `Lanes`. For λ > 0 the
    /// objective is strictly convex in W and the fit finds its one minimum; the bias is returned
    /// centred (summing to 0), the one choice among the equivalent ones. Synchronous: it runs on
    /// the caller's thread, calls `progress` there, and stops with a cancellation error when the
    /// calling `Task` is cancelled (checked after each iteration).
    /// - Parameters:
    ///   - data: N examples of D features, K classes.
    ///   - options: λ, ε and the stopping rules (`SoftmaxRegressionOptions`).
    ///   - progress: called after each iteration with its number, L and ‖∇L‖.
    /// - Returns: the model, L and ‖∇L‖ at it, the iterations and evaluations done, and why the
    ///   solver stopped (reaching `maxIterations` or a failed line search is a `StopReason`, not an
    ///   error: the model is the last point accepted).
    /// - Throws: `TasksError` invalidArgument when an option is out of range, or when ε = 0 and a
    ///   class has no rows (its bias would have no minimum); cancelledError when the calling task
    ///   is cancelled; internalError when liblbfgs refuses to run or the objective stops being a
    ///   finite number.
    package static func fit(
        _ data: TrainingSet, options: SoftmaxRegressionOptions = SoftmaxRegressionOptions(),
        progress: (TrainingProgress) -> Void = { _ in }
    ) throws(TasksError) -> SoftmaxRegressionFit {
        try options.validate()
        if options.labelSmoothing == 0, let empty = data.classSizes.firstIndex(of: 0) {
            throw TrainingErrors.emptyClass(empty)
        }
        let objective = SoftmaxObjective(
            data: data, l2Strength: options.l2Strength, labelSmoothing: options.labelSmoothing)
        guard let variables = LBFGSVariables(count: objective.parameterCount) else {
            throw TrainingErrors.solverFailed(.outOfMemory)
        }
        let solver = PreconditionedObjective(objective, options: options)
        let (outcome, done) = minimize(solver, variables, options: options, progress: progress)
        var stopReason: StopReason
        switch outcome.status {
        case .success, .alreadyMinimized: stopReason = .converged
        case .stop: stopReason = .objectiveStalled
        case .maximumIteration: stopReason = .maximumIterations
        case .canceled: throw TrainingErrors.cancelled(at: done)
        case let status where status.isLineSearchFailure: stopReason = .lineSearchFailed(status)
        case let status: throw TrainingErrors.solverFailed(status)
        }

        let (k, d) = (data.classCount, data.featureCount)
        let evaluations = objective.evaluations
        let fitted = solver.modelParameters(variables.pointer)
        let bias = Array(fitted[(k * d)...])
        let mean = bias.reduce(0, +) / Double(k)
        let centred = bias.map { $0 - mean }
        let model = SoftmaxRegression(
            fitted: Matrix(unchecked: k, columns: d, values: Array(fitted[..<(k * d)])), bias: centred)
        let final = try model.objective(on: data, options: options)
        guard final.value.isFinite, model.weights.values.allSatisfy(\.isFinite), centred.allSatisfy(\.isFinite) else {
            throw TrainingErrors.nonFiniteObjective(final.value)
        }
        // liblbfgs tests the gradient only after an iteration: at a start that is already the
        // optimum (identical rows of balanced classes at λ = 0: ‖∇L‖ 1e-15) its first line search
        // finds no decrease and fails. The gradient test holding at the point returned is convergence.
        if case .lineSearchFailed = stopReason,
            final.gradientNorm <= options.gradientTolerance * max(1, fitted.reduce(0) { $0 + $1 * $1 }.squareRoot())
        {
            stopReason = .converged
        }
        return SoftmaxRegressionFit(
            model: model, objective: final.value, gradientNorm: final.gradientNorm, iterations: done,
            evaluations: evaluations, stopReason: stopReason)
    }
}

extension SoftmaxRegression {
    /// Runs L-BFGS on `solver` from `variables` (left at the last point accepted) until it stops
    /// for another reason than a refresh of the preconditioner; the last run's outcome and the
    /// iterations of all runs.
    private static func minimize(
        _ solver: PreconditionedObjective, _ variables: LBFGSVariables, options: SoftmaxRegressionOptions,
        progress: (TrainingProgress) -> Void
    ) -> (LBFGS.Outcome, iterations: Int) {
        var done = 0
        var outcome: LBFGS.Outcome
        repeat {
            var parameters = options.lbfgsParameters
            parameters.max_iterations = Int32(options.maxIterations - done)
            outcome = LBFGS.minimize(
                variables, parameters: parameters, evaluate: solver.evaluate,
                progress: { report in
                    progress(
                        TrainingProgress(
                            iteration: done + report.iteration, objective: report.objective,
                            gradientNorm: solver.lastGradientNorm))
                    if Task.isCancelled { return .cancel }
                    if solver.hasConverged(tolerance: options.gradientTolerance) { return .converged }
                    let due = report.iteration % Self.curvatureCheckInterval == 0
                    let refreshes =
                        due && done + report.iteration < options.maxIterations
                        && solver.shouldRefresh()
                    return refreshes ? .restart : .proceed
                })
            done += outcome.iterations
            if outcome.restarts { solver.refresh(variables.pointer) }
        } while outcome.restarts
        return (outcome, done)
    }

    /// L-BFGS iterations between two looks at the rows' mean curvature, which remake the
    /// preconditioner when it has moved (`PreconditionedObjective.shouldRefresh`; a refresh
    /// restarts L-BFGS's history and costs about 0.07 s, some 20 evaluations, a look 1 ms). On
    /// 3,068 photos' 1,024 MobileNet v1 features, λ = 1/N: 260 iterations without refreshes;
    /// 188, 171 and 143 remade every 10, 20 and 40; 117, 121 and 134 when moved, looking every
    /// 10, 20 and 40 (one refresh at 20, 0.7 s in all).
    static let curvatureCheckInterval = 20
}

extension SoftmaxRegressionOptions {
    /// liblbfgs's settings for these options: its defaults (More–Thuente line search, 40 trials
    /// per line search) with m, past, delta and max_iterations from ours, and no gradient test
    /// of its own (epsilon 0): it would be in the solver's variables, and the fit makes the test
    /// in (W, b) after each iteration (`PreconditionedObjective.hasConverged`).
    var lbfgsParameters: lbfgs_parameter_t {
        var parameters = lbfgs_parameter_t()
        lbfgs_parameter_init(&parameters)
        parameters.m = Int32(historySize)
        parameters.epsilon = 0
        parameters.past = objectiveDecreaseTolerance > 0 ? Int32(objectiveDecreaseWindow) : 0
        parameters.delta = objectiveDecreaseTolerance
        parameters.max_iterations = Int32(maxIterations)
        return parameters
    }
}
