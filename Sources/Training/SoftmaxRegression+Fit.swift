import CLBFGS
import TasksCommon

extension SoftmaxRegression {
    /// Trains a model on `data`: minimizes
    ///
    ///     L(W, b) = (1/N) Σᵢ CE(softmax(W xᵢ + b), tᵢ) + (λ/2) ‖W‖²_F
    ///
    /// (targets tᵢ = (1 − ε) · onehot(yᵢ) + ε / K, bias not penalized) over all N examples at
    /// once, with liblbfgs's L-BFGS and More–Thuente line search from W = 0, b = 0. For λ > 0 the
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
        let outcome = LBFGS.minimize(
            variables, parameters: options.lbfgsParameters, evaluate: objective.evaluate,
            progress: { report in
                progress(report)
                return !Task.isCancelled
            })
        let stopReason: StopReason
        switch outcome.status {
        case .success, .alreadyMinimized: stopReason = .converged
        case .stop: stopReason = .objectiveStalled
        case .maximumIteration: stopReason = .maximumIterations
        case .canceled: throw TrainingErrors.cancelled(at: outcome.iterations)
        case let status where status.isLineSearchFailure: stopReason = .lineSearchFailed(status)
        case let status: throw TrainingErrors.solverFailed(status)
        }

        let (k, d) = (data.classCount, data.featureCount)
        let evaluations = objective.evaluations
        let parameters = UnsafeBufferPointer(start: variables.pointer, count: variables.count)
        let bias = Array(parameters[(k * d)...])
        let mean = bias.reduce(0, +) / Double(k)
        let centred = bias.map { $0 - mean }
        let model = SoftmaxRegression(
            fitted: Matrix(unchecked: k, columns: d, values: Array(parameters[..<(k * d)])), bias: centred)
        let final = try model.objective(on: data, options: options)
        guard final.value.isFinite, model.weights.values.allSatisfy(\.isFinite), centred.allSatisfy(\.isFinite) else {
            throw TrainingErrors.nonFiniteObjective(final.value)
        }
        return SoftmaxRegressionFit(
            model: model, objective: final.value, gradientNorm: final.gradientNorm, iterations: outcome.iterations,
            evaluations: evaluations, stopReason: stopReason)
    }
}

extension SoftmaxRegressionOptions {
    /// liblbfgs's settings for these options: its defaults (More–Thuente line search, 40 trials
    /// per line search) with m, epsilon, past, delta and max_iterations from ours.
    var lbfgsParameters: lbfgs_parameter_t {
        var parameters = lbfgs_parameter_t()
        lbfgs_parameter_init(&parameters)
        parameters.m = Int32(historySize)
        parameters.epsilon = gradientTolerance
        parameters.past = objectiveDecreaseTolerance > 0 ? Int32(objectiveDecreaseWindow) : 0
        parameters.delta = objectiveDecreaseTolerance
        parameters.max_iterations = Int32(maxIterations)
        return parameters
    }
}
