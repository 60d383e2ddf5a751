/// The `NormalizationOptions` process unit of an input tensor: the model expects
/// `(pixel - mean) / std` per channel, pixels in [0, 255].
///
/// Mirrors `tflite::NormalizationOptions` (metadata schema). One value applies to every
/// channel; three are per channel (R, G, B). MediaPipe accepts 1 value, or 3 equal values
/// (per-channel normalization is "not available" in MediaPipe); this product accepts 3. Values
/// are stored as read; the metadata writer checks what it writes (1 or 3 finite values, std
/// non-zero) and classifier creation checks what it reads.
public struct NormalizationOptions: Equatable, Sendable {
    /// `mean`: per-channel means, in pixel units [0, 255]; empty when absent.
    public var mean: [Float]
    /// `std`: per-channel standard deviations, in pixel units; empty when absent.
    public var std: [Float]

    /// Creates normalization options from 1 or 3 means and standard deviations, in pixel units.
    public init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }

    /// Decodes a `NormalizationOptions` table.
    init(table: FlatBufferTable) throws(FlatBufferError) {
        mean = try table.floats(Schema.NormalizationOptions.mean, "mean")
        std = try table.floats(Schema.NormalizationOptions.std, "std")
    }
}
