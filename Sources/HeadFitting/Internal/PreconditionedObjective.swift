/// The objective as the solver sees it: in the `Preconditioner`'s variables (W̃, c) when the
/// training set has one, else in (W, b) as they are. Either way it keeps the norms of the last
/// evaluation's point and gradient in (W, b), so that convergence is judged on the objective's
/// own gradient whatever the solver's coordinates. Not `Sendable`: one fit, one thread (with
/// the `Lanes` each evaluation starts and waits for).
final class PreconditionedObjective {
    let objective: SoftmaxObjective
    private let l2Strength: Double
    private var preconditioner: Preconditioner?
    /// (W, b) of the solver's point, and ∇L there (both empty without a preconditioner).
    private var point: [Double]
    private var modelGradient: [Double]
    /// w̄, the rows' mean curvature the preconditioner was made with (1/K at the start, where
    /// every p = 1/K).
    private var curvatureInUse: Double
    /// The rows' curvatures where `shouldRefresh` last said yes, for `refresh`.
    private var movedCurvatures: [Double]?
    /// ‖(W, b)‖² and ‖∇L(W, b)‖² at the last point evaluated.
    private(set) var lastSquaredNorms = (parameters: 0.0, gradient: 0.0)
    /// ‖∇L(W, b)‖ at the first point evaluated (nil before).
    private var firstGradientNorm: Double?

    init(_ objective: SoftmaxObjective, options: SoftmaxRegressionOptions) {
        self.objective = objective
        l2Strength = options.l2Strength
        let data = objective.data
        curvatureInUse = 1 / Double(data.classCount)
        preconditioner = data.moments.flatMap { [curvatureInUse] in
            Preconditioner($0, meanCurvature: curvatureInUse, l2Strength: options.l2Strength, classes: data.classCount)
        }
        point = [Double](repeating: 0, count: preconditioner == nil ? 0 : objective.parameterCount)
        modelGradient = point
    }

    /// L at the solver's `parameters`; writes ∇L in the solver's variables into `gradient`.
    func evaluate(_ parameters: UnsafePointer<Double>, gradient: UnsafeMutablePointer<Double>) -> Double {
        guard let preconditioner else {
            let value = objective.evaluate(parameters, gradient: gradient)
            noteNorms(parameters: parameters, gradient: gradient)
            return value
        }
        return point.withUnsafeMutableBufferPointer { point in
            modelGradient.withUnsafeMutableBufferPointer { modelGradient in
                let (point, modelGradient) = (point.baseAddress!, modelGradient.baseAddress!)
                preconditioner.parameters(parameters, into: point)
                let value = objective.evaluate(point, gradient: modelGradient)
                noteNorms(parameters: point, gradient: modelGradient)
                preconditioner.precondition(gradient: modelGradient, into: gradient)
                return value
            }
        }
    }

    /// ‖∇L(W, b)‖ at the last point evaluated.
    var lastGradientNorm: Double { lastSquaredNorms.gradient.squareRoot() }

    /// Keeps the first evaluation's ‖∇L‖, after each evaluation.
    private func noteNorms(parameters: UnsafePointer<Double>, gradient: UnsafePointer<Double>) {
        let count = objective.parameterCount
        lastSquaredNorms = (Self.squaredNorm(parameters, count), Self.squaredNorm(gradient, count))
        if firstGradientNorm == nil { firstGradientNorm = lastGradientNorm }
    }

    /// Whether to remake the preconditioner at the last point evaluated: the rows' mean
    /// curvature there (`SoftmaxObjective.curvatures`) differs from the one it was made with by
    /// more than `refreshRatio` either way, while ‖∇L‖ is still over `refreshDistance` times the
    /// first evaluation's. False without a preconditioner. The curvatures of a yes are kept for
    /// `refresh` at that point.
    func shouldRefresh() -> Bool {
        guard preconditioner != nil, let firstGradientNorm, lastGradientNorm > Self.refreshDistance * firstGradientNorm
        else { return false }
        let curvatures = point.withUnsafeBufferPointer { objective.curvatures(at: $0.baseAddress!) }
        let mean = curvatures.reduce(0, +) / Double(curvatures.count)
        guard max(mean / curvatureInUse, curvatureInUse / mean) > Self.refreshRatio else { return false }
        movedCurvatures = curvatures
        return true
    }

    /// How far the mean curvature may move, as a ratio, before the preconditioner is remade. On
    /// 3,068 photos' 1,024 MobileNet v1 features, λ = 1/N, looked at every 20 iterations: 0.1
    /// (1/K) at the start, 0.0020 at iteration 20 (remade), then 0.0018 to the end (kept): 121
    /// iterations in all, against 171 remade at every look.
    static let refreshRatio = 1.25

    /// The share of the first ‖∇L‖ under which the preconditioner is kept: a refresh restarts
    /// L-BFGS, whose history is worth more near the optimum than a better preconditioner. 200
    /// photos of 12 skewed features, 4 classes (`PreconditionerTests`): at iteration 20 the
    /// curvature had moved from 0.25 to 0.11 with ‖∇L‖ down 800,000 times; remade there, the
    /// fit ended on the objective's rounding (‖∇L‖ 2.4e-7) short of a test of 2.2e-7 that it
    /// passes in 28 iterations without. The clothing fit above was down 100 times at iteration 20.
    static let refreshDistance = 1e-4

    /// Remakes the preconditioner from each row's curvature at the solver's point `parameters`
    /// (the ones `shouldRefresh` kept when it is the point it checked, else
    /// `SoftmaxObjective.curvatures` there), and rewrites `parameters` as the same (W, b) in the
    /// new variables. Keeps the old preconditioner when the new one has no factor.
    func refresh(_ parameters: UnsafeMutablePointer<Double>) {
        guard preconditioner != nil else { return }
        let model = modelParameters(parameters)
        let curvatures = movedCurvatures ?? model.withUnsafeBufferPointer { objective.curvatures(at: $0.baseAddress!) }
        movedCurvatures = nil
        let data = objective.data
        let moments = FeatureMoments(data.rows, weights: curvatures)
        guard moments.meanWeight > 0,
            let refreshed = Preconditioner(
                moments, meanCurvature: moments.meanWeight, l2Strength: l2Strength, classes: data.classCount)
        else { return }
        preconditioner = refreshed
        curvatureInUse = moments.meanWeight
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
