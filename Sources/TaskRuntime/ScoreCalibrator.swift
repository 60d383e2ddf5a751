import Foundation
import TFLiteMetadata

/// Applies a head's score calibration (ScoreCalibrationOptions + its calibration file) as
/// MediaPipe's ScoreCalibrationCalculator does: one sigmoid per category.
struct ScoreCalibrator: Sendable {
    let transformation: ScoreTransformation
    let defaultScore: Float
    /// One entry per category; nil means "use `defaultScore`".
    let sigmoids: [Sigmoid?]

    /// Calibrates `scores` in place; `scores.count == sigmoids.count` was checked at creation.
    func calibrate(_ scores: UnsafeMutableBufferPointer<Float>) {
        for index in scores.indices {
            scores[index] = calibrate(scores[index], with: sigmoids[index])
        }
    }

    /// `scale · σ(slope · g(x) + offset)` clamped to [0, scale], or the default score when the
    /// sigmoid is absent or `x` is below its `minScore`.
    func calibrate(_ x: Float, with sigmoid: Sigmoid?) -> Float {
        guard let sigmoid, sigmoid.minScore.map({ x >= $0 }) ?? true else { return defaultScore }
        let z = sigmoid.slope * transformed(x) + sigmoid.offset
        // The two forms avoid overflow of exp for large |z|.
        let value = z >= 0 ? sigmoid.scale / (1 + exp(-z)) : sigmoid.scale * exp(z) / (1 + exp(z))
        return min(max(value, 0), sigmoid.scale)
    }

    private func transformed(_ x: Float) -> Float {
        switch transformation {
        case .identity: x
        case .log: clampedLog(x)
        case .inverseLogistic: clampedLog(x) - clampedLog(1 - x)
        }
    }

    /// log(x), continued below 1e-16 by a mirror image so that it stays finite and monotonic.
    private func clampedLog(_ x: Float) -> Float {
        let epsilon: Float = 1e-16
        return x >= epsilon ? log(x) : 2 * log(epsilon) - log(2 * epsilon - x)
    }
}
