import Foundation

/// Adam or SGD with momentum over the engine's parameters, with each parameter's learning rate
/// (the pretrained layers' are lower), following Keras's update rules:
/// Adam: m ← β1 m + (1 − β1) g, v ← β2 v + (1 − β2) g², w ← w − lr·√(1 − β2ᵗ)/(1 − β1ᵗ) · m / (√v + ε);
/// SGD: u ← 0.9 u − lr g, w ← w + u.
final class Optimizer {
    private let kind: FineTuningOptimizer
    /// Per parameter: the learning rate.
    private let rates: [Float]
    /// Per parameter: Adam's first moment, or SGD's velocity.
    private let first: [FloatBuffer]
    /// Per parameter: Adam's second moment (empty for SGD).
    private let second: [FloatBuffer]
    /// Steps taken (Adam's t).
    private var steps = 0

    private static let beta1: Float = 0.9
    private static let beta2: Float = 0.999
    private static let epsilon: Float = 1e-7
    private static let momentum: Float = 0.9

    /// State for parameters of `sizes` floats trained at `rates`.
    init(_ kind: FineTuningOptimizer, sizes: [Int], rates: [Float]) {
        self.kind = kind
        self.rates = rates
        first = sizes.map { FloatBuffer(count: $0) }
        second = kind == .adam ? sizes.map { FloatBuffer(count: $0) } : []
    }

    /// One step on every parameter from its gradient, each at its learning rate times
    /// `rateScale` (the schedule's factor for this step).
    func step(_ weights: [FloatBuffer], gradients: [FloatBuffer], rateScale: Double = 1) {
        steps += 1
        for index in weights.indices {
            switch kind {
            case .adam: adam(weights[index], gradients[index], index, rateScale)
            case .sgd: sgd(weights[index], gradients[index], index, rateScale)
            }
        }
    }

    private func adam(_ w: FloatBuffer, _ g: FloatBuffer, _ index: Int, _ rateScale: Double) {
        let t = Double(steps)
        // The bias corrections in Double: β2ᵗ is close to 1 for the first thousands of steps.
        let correction = (1 - pow(Double(Self.beta2), t)).squareRoot() / (1 - pow(Double(Self.beta1), t))
        let rate = Float(Double(rates[index]) * rateScale * correction)
        let m = first[index].pointer
        let v = second[index].pointer
        let (b1, b2, epsilon) = (Self.beta1, Self.beta2, Self.epsilon)
        for i in 0..<w.count {
            let gradient = g.pointer[i]
            m[i] = b1 * m[i] + (1 - b1) * gradient
            v[i] = b2 * v[i] + (1 - b2) * gradient * gradient
            w.pointer[i] -= rate * m[i] / (v[i].squareRoot() + epsilon)
        }
    }

    private func sgd(_ w: FloatBuffer, _ g: FloatBuffer, _ index: Int, _ rateScale: Double) {
        let rate = Float(Double(rates[index]) * rateScale)
        let u = first[index].pointer
        for i in 0..<w.count {
            u[i] = Self.momentum * u[i] - rate * g.pointer[i]
            w.pointer[i] += u[i]
        }
    }
}
