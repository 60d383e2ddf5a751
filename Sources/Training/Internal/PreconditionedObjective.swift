/// The objective as the solver sees it: in the `Preconditioner`'s variables (W̃, c) when the
/// training set has one, else in (W, b) as they are. Either way it keeps the norms of the last
/// evaluation's point and gradient in (W, b), so that convergence is judged on the objective's
/// own gradient whatever the solver's coordinates. Not `Sendable`: one fit, one thread.
final class PreconditionedObjective {
    let objective: SoftmaxObjective
    private let l2Strength: Double
    private var preconditioner: Preconditioner?
    /// (W, b) of the solver's point (empty without a preconditioner).
    private var point: [Double]
    /// ‖(W, b)‖² and ‖∇L(W, b)‖² at the last point evaluated.
    private(set) var lastSquaredNorms = (parameters: 0.0, gradient: 0.0)

    init(_ objective: SoftmaxObjective, options: SoftmaxRegressionOptions) {
        self.objective = objective
        l2Strength = options.l2Strength
        let data = objective.data
        preconditioner = data.moments.flatMap {
            Preconditioner(
                $0, meanCurvature: 1 / Double(data.classCount), l2Strength: options.l2Strength, classes: data.classCount)
        }
        point = [Double](repeating: 0, count: preconditioner == nil ? 0 : objective.parameterCount)
    }

    /// L at the solver's `parameters`; writes ∇L in the solver's variables into `gradient`.
    func evaluate(_ parameters: UnsafePointer<Double>, gradient: UnsafeMutablePointer<Double>) -> Double {
        let count = objective.parameterCount
        guard let preconditioner else {
            let value = objective.evaluate(parameters, gradient: gradient)
            lastSquaredNorms = (Self.squaredNorm(parameters, count), Self.squaredNorm(gradient, count))
            return value
        }
        return point.withUnsafeMutableBufferPointer { point in
            preconditioner.parameters(parameters, into: point.baseAddress!)
            let value = objective.evaluate(point.baseAddress!, gradient: gradient)
            lastSquaredNorms = (Self.squaredNorm(point.baseAddress!, count), Self.squaredNorm(gradient, count))
            preconditioner.precondition(gradient: gradient)
            return value
        }
    }

    /// ‖∇L(W, b)‖ at the last point evaluated.
    var lastGradientNorm: Double { lastSquaredNorms.gradient.squareRoot() }

    /// Whether `refresh` can run: the fit works in a preconditioner's variables.
    var isPreconditioned: Bool { preconditioner != nil }

    /// Remakes the preconditioner from each row's curvature at the solver's point `parameters`
    /// (`SoftmaxObjective.curvatures`), and rewrites `parameters` as the same (W, b) in the new
    /// variables. Keeps the old preconditioner when the new one has no factor.
    func refresh(_ parameters: UnsafeMutablePointer<Double>) {
        guard preconditioner != nil else { return }
        let model = modelParameters(parameters)
        let curvatures = model.withUnsafeBufferPointer { objective.curvatures(at: $0.baseAddress!) }
        let data = objective.data
        let moments = FeatureMoments(data.rows, weights: curvatures)
        guard moments.meanWeight > 0,
            let refreshed = Preconditioner(
                moments, meanCurvature: moments.meanWeight, l2Strength: l2Strength, classes: data.classCount)
        else { return }
        preconditioner = refreshed
        parameters.update(from: model, count: model.count)
        refreshed.precondition(parameters: parameters)
    }

    /// liblbfgs's gradient test, in (W, b): ‖∇L‖ ≤ `tolerance` · max(1, ‖(W, b)‖) at the last
    /// point evaluated.
    func hasConverged(tolerance: Double) -> Bool {
        lastGradientNorm <= tolerance * max(1, lastSquaredNorms.parameters.squareRoot())
    }

    /// (W, b) of the solver's point `parameters`.
    func modelParameters(_ parameters: UnsafePointer<Double>) -> [Double] {
        let count = objective.parameterCount
        guard let preconditioner else { return Array(UnsafeBufferPointer(start: parameters, count: count)) }
        return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            preconditioner.parameters(parameters, into: buffer.baseAddress!)
            initialized = count
        }
    }

    private static func squaredNorm(_ values: UnsafePointer<Double>, _ count: Int) -> Double {
        var sum = 0.0
        for index in 0..<count { sum += values[index] * values[index] }
        return sum
    }
}
