/// What a file is read as: the noun messages use and the largest size accepted.
package struct FileKind: Sendable, Equatable {
    /// How messages call the file ("image file", "model file").
    package let noun: String
    /// The largest file accepted, in bytes; larger ones are refused before reading.
    package let maximumByteCount: Int

    package init(noun: String, maximumByteCount: Int) {
        self.noun = noun
        self.maximumByteCount = maximumByteCount
    }

    /// JPEG, PNG and WebP files: 256 MiB.
    package static let image = FileKind(noun: "image file", maximumByteCount: 256 << 20)
    /// .tflite models: 2 GiB, the largest FlatBuffer (its offsets are 32-bit signed).
    package static let model = FileKind(noun: "model file", maximumByteCount: 2 << 30)
    /// AutoML `manifest.json`: 1 MiB (it holds three short strings).
    package static let manifest = FileKind(noun: "AutoML manifest", maximumByteCount: 1 << 20)
    /// Label files such as `dict.txt`: 64 MiB (a million labels of 64 bytes).
    package static let labels = FileKind(noun: "labels file", maximumByteCount: 64 << 20)
    /// Score calibration files packed into a model: 64 MiB, as label files.
    package static let scoreCalibration = FileKind(noun: "score calibration file", maximumByteCount: 64 << 20)
    /// A file results are appended to (`--output`); never read whole, so no limit.
    package static let output = FileKind(noun: "output file", maximumByteCount: .max)
}
