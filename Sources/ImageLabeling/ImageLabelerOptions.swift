import Foundation

/// Options every image labeler has. Mirrors ML Kit's `CommonImageLabelerOptions`.
///
/// A class, as in ML Kit, so `let options = ...; options.confidenceThreshold = ...` compiles.
/// The labeler copies the values when it is created.
public class CommonImageLabelerOptions {
    /// Labels with a lower confidence are not returned; in [0, 1]. nil means the subclass's default:
    /// 0.5 for AutoML models, the model metadata's threshold (else 0) for custom models.
    public var confidenceThreshold: NSNumber?

    /// The most labels returned per image, highest confidence first; positive. Default 10.
    public var maxResultCount: Int = 10

    init() {}
}

/// Options for a labeler running an AutoML Vision Edge model. Mirrors ML Kit's
/// `AutoMLImageLabelerOptions`.
///
/// With `confidenceThreshold` nil the threshold is 0.5: the default Firebase ML Kit documented
/// for its AutoML labeler (ML Kit's current reference is silent, and the seed guide always sets
/// a value). Labels come from the export's labels file (`dict.txt`).
public final class AutoMLImageLabelerOptions: CommonImageLabelerOptions {
    /// The default threshold for AutoML models when `confidenceThreshold` is nil.
    public static let defaultConfidenceThreshold: Float = 0.5

    let localModel: AutoMLImageLabelerLocalModel?
    let remoteModel: AutoMLImageLabelerRemoteModel?

    /// Options for a local AutoML export.
    public init(localModel: AutoMLImageLabelerLocalModel) {
        self.localModel = localModel
        self.remoteModel = nil
    }

    /// Options for a remote AutoML model, downloaded with ``ModelManager``. Creating the labeler
    /// before the model is downloaded fails with `failedPreconditionError` naming the model.
    public init(remoteModel: AutoMLImageLabelerRemoteModel) {
        self.localModel = nil
        self.remoteModel = remoteModel
    }
}

/// Options for a labeler running a custom TFLite image classification model with metadata.
/// Mirrors ML Kit's `CustomImageLabelerOptions`.
///
/// With `confidenceThreshold` nil the threshold is the model metadata's
/// ScoreThresholdingOptions value, else 0, as ML Kit documents. Labels come from the metadata.
public final class CustomImageLabelerOptions: CommonImageLabelerOptions {
    let localModel: LocalModel?
    let remoteModel: RemoteModel?

    /// Options for a local model. An `AutoMLImageLabelerLocalModel` works too: its labels file
    /// then replaces the metadata's labels.
    public init(localModel: LocalModel) {
        self.localModel = localModel
        self.remoteModel = nil
    }

    /// Options for a remote model (``CustomRemoteModel`` or ``AutoMLImageLabelerRemoteModel``),
    /// downloaded with ``ModelManager``. Creating the labeler before the model is downloaded
    /// fails with `failedPreconditionError` naming the model.
    public init(remoteModel: RemoteModel) {
        self.localModel = nil
        self.remoteModel = remoteModel
    }
}
