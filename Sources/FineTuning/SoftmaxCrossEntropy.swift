import Foundation

/// Softmax and cross-entropy on a batch of logits, with label smoothing and per-example weights.
///
/// The batch loss is Σᵢ wᵢ · CEᵢ / n (Keras's `class_weight` with its mean reduction: weights
/// scale each example's share, the divisor stays the batch size), where CEᵢ = −Σₖ tₖ log pₖ and
/// t = (1 − ε)·one-hot + ε / classes.
struct SoftmaxCrossEntropy {
    let classes: Int
    let smoothing: Float

    /// The sum of weighted cross-entropies (Double, so that a batch's sum does not lose digits)
    /// and the count of rows whose largest logit is the label's. Writes the probabilities into
    /// `probabilities` and, when `gradient` is given, dLoss/dLogits = wᵢ (p − t) / `divisor`.
    func evaluate(
        _ logits: UnsafePointer<Float>, rows: Int, labels: [Int], weights: [Float]?, divisor: Int,
        probabilities: UnsafeMutablePointer<Float>, gradient: UnsafeMutablePointer<Float>?
    ) -> (loss: Double, correct: Int) {
        var loss = 0.0
        var correct = 0
        for r in 0..<rows {
            let z = logits + r * classes
            let p = probabilities + r * classes
            let logSum = softmax(z, into: p)
            if argmax(z) == labels[r] { correct += 1 }
            let weight = weights?[r] ?? 1
            loss += Double(weight) * crossEntropy(z, logSum: logSum, label: labels[r])
            if let gradient {
                let g = gradient + r * classes
                let scale = weight / Float(divisor)
                for k in 0..<classes { g[k] = scale * (p[k] - target(k, label: labels[r])) }
            }
        }
        return (loss, correct)
    }

    /// The smoothed target of class k for an example of `label`.
    @inline(__always)
    private func target(_ k: Int, label: Int) -> Float {
        (k == label ? 1 - smoothing : 0) + smoothing / Float(classes)
    }

    /// Writes softmax(z) into p; returns max(z) + log Σ exp(z − max), the log normalizer.
    private func softmax(_ z: UnsafePointer<Float>, into p: UnsafeMutablePointer<Float>) -> Double {
        var largest = z[0]
        for k in 1..<classes { largest = max(largest, z[k]) }
        var sum: Float = 0
        for k in 0..<classes {
            p[k] = exp(z[k] - largest)
            sum += p[k]
        }
        for k in 0..<classes { p[k] /= sum }
        return Double(largest) + log(Double(sum))
    }

    /// −Σₖ tₖ (zₖ − logSum).
    private func crossEntropy(_ z: UnsafePointer<Float>, logSum: Double, label: Int) -> Double {
        var total = 0.0
        for k in 0..<classes {
            let t = Double(target(k, label: label))
            if t != 0 { total -= t * (Double(z[k]) - logSum) }
        }
        return total
    }

    /// The index of the largest logit (the first on ties).
    private func argmax(_ z: UnsafePointer<Float>) -> Int {
        var best = 0
        for k in 1..<classes where z[k] > z[best] { best = k }
        return best
    }
}
