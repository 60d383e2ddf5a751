import TasksCommon

/// The `ScoreCalibrationOptions` process unit of an output tensor: scores are calibrated
/// with the per-class sigmoids of the tensor's `tensorAxisScoreCalibration` file.
///
/// Mirrors `tflite::ScoreCalibrationOptions` (metadata schema).
package struct ScoreCalibrationOptions: Equatable, Sendable {
    /// `score_transformation`; `.identity` when absent.
    package var transformation: ScoreTransformation
    /// `default_score`: the calibrated score of a class with no sigmoid, or whose score is
    /// below the sigmoid's `minScore`; 0 when absent.
    package var defaultScore: Float

    /// Creates score calibration options.
    package init(transformation: ScoreTransformation = .identity, defaultScore: Float = 0) {
        self.transformation = transformation
        self.defaultScore = defaultScore
    }

    /// Decodes a `ScoreCalibrationOptions` table.
    ///
    /// - Throws: `FlatBufferError` for bad offsets; `TasksError` (invalidArgument) for a
    ///   `score_transformation` value the schema does not define (MediaPipe has no
    ///   behaviour for one).
    init(table: FlatBufferTable) throws {
        let raw = Int8(bitPattern: try table.uint8(Schema.ScoreCalibrationOptions.scoreTransformation, "score_transformation"))
        guard let transformation = ScoreTransformation(rawValue: raw) else {
            throw TasksError.invalidArgument(
                "Unsupported score_transformation \(raw) in ScoreCalibrationOptions: expected IDENTITY (0), LOG (1) or INVERSE_LOGISTIC (2)."
            )
        }
        self.transformation = transformation
        defaultScore = try table.float32(Schema.ScoreCalibrationOptions.defaultScore, "default_score")
    }
}
