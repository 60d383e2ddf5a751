/// The calibration sigmoid of one class, from one line of a score calibration file.
///
/// Mirrors MediaPipe's `ScoreCalibrationCalculatorOptions.Sigmoid`. The calibrated score is
/// `scale / (1 + exp(-(slope * g(x) + offset)))`, clamped to [0, scale], or the
/// default score when `minScore` is set and `x < minScore` (see `ScoreCalibrationOptions`).
package struct Sigmoid: Equatable, Sendable {
    /// The sigmoid's maximum, at least 0.
    package var scale: Float
    /// The factor applied to the transformed score.
    package var slope: Float
    /// The offset added to the scaled transformed score.
    package var offset: Float
    /// Scores below it get the default score; nil when the line has 3 values.
    package var minScore: Float?

    /// Creates a sigmoid.
    package init(scale: Float, slope: Float, offset: Float, minScore: Float? = nil) {
        self.scale = scale
        self.slope = slope
        self.offset = offset
        self.minScore = minScore
    }
}
