/// A TFLite image classification model on the local file system, for
/// `CustomImageLabelerOptions(localModel:)`. Labels come from the model's metadata.
///
/// Mirrors ML Kit's `LocalModel(path:)`. A class, as in ML Kit. Creating it reads nothing;
/// the file is loaded and checked when a labeler is created from it.
public class LocalModel {
    /// The path of the .tflite file.
    public let path: String

    /// Refers to the model file at `path`.
    public init(path: String) {
        self.path = path
    }
}

/// A model exported by AutoML Vision Edge: a folder with `manifest.json`, the model file and a
/// labels file (`dict.txt`, one label per line in output order).
///
/// Mirrors ML Kit's `AutoMLImageLabelerLocalModel(manifestPath:)`. Creating it reads nothing,
/// as in ML Kit; the manifest is read and checked when a labeler is created, and its errors
/// name the file at fault.
public final class AutoMLImageLabelerLocalModel: LocalModel {
    /// The path of `manifest.json`.
    public let manifestPath: String

    /// Refers to the AutoML export whose manifest is at `manifestPath`.
    public init(manifestPath: String) {
        self.manifestPath = manifestPath
        super.init(path: manifestPath)
    }
}
