/// The `ScoreThresholdingOptions` process unit of an output tensor: the recommended
/// score threshold.
///
/// Mirrors `tflite::ScoreThresholdingOptions` (metadata schema). MediaPipe's public APIs
/// always set their own threshold option, so this value is only a fallback.
package struct ScoreThresholdingOptions: Equatable, Sendable {
    /// `global_score_threshold`: results scoring below it are low-confidence; 0 when absent.
    package var globalScoreThreshold: Float

    /// Creates score thresholding options.
    package init(globalScoreThreshold: Float) {
        self.globalScoreThreshold = globalScoreThreshold
    }

    /// Decodes a `ScoreThresholdingOptions` table.
    init(table: FlatBufferTable) throws(FlatBufferError) {
        globalScoreThreshold = try table.float32(Schema.ScoreThresholdingOptions.globalScoreThreshold, "global_score_threshold")
    }
}
