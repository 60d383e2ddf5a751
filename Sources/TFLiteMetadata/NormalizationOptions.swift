/// The `NormalizationOptions` process unit of an input tensor: the model expects
/// `(pixel - mean) / std` per channel, pixels in [0, 255].
///
/// Mirrors `tflite::NormalizationOptions` (metadata schema). One value applies to every
/// channel; MediaPipe accepts 1 value, or 3 equal values (per-channel normalization is
/// "not available" in MediaPipe). Values are stored as read; validation is the caller's.
package struct NormalizationOptions: Equatable, Sendable {
    /// `mean`: per-channel means, in pixel units [0, 255]; empty when absent.
    package var mean: [Float]
    /// `std`: per-channel standard deviations, in pixel units; empty when absent.
    package var std: [Float]

    /// Creates normalization options.
    package init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }

    /// Decodes a `NormalizationOptions` table.
    init(table: FlatBufferTable) throws(FlatBufferError) {
        mean = try table.floats(Schema.NormalizationOptions.mean, "mean")
        std = try table.floats(Schema.NormalizationOptions.std, "std")
    }
}
