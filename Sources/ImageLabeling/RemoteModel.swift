import Foundation

/// A model hosted on a model source and downloaded by ``ModelManager``. Mirrors ML Kit's
/// `RemoteModel`.
///
/// Create an ``AutoMLImageLabelerRemoteModel`` or a ``CustomRemoteModel``; then
/// ``ModelManager/download(_:conditions:)`` fetches it and labelers use it once
/// ``ModelManager/isModelDownloaded(_:)`` is true. The model is found by ``name`` in the
/// source's `index.json` (see <doc:RemoteModels>). A class, as in ML Kit; its values never
/// change, so it is `Sendable`.
public class RemoteModel: @unchecked Sendable {
    // @unchecked: every stored property is a `let` of a Sendable type; subclasses add none.

    /// The name the model was published under: the key of its entry in `index.json`.
    public let name: String
    /// The base URL of the source hosting it, or nil for the manager's
    /// (``ModelManager/modelSource``).
    public let sourceURL: URL?

    init(name: String, sourceURL: URL?) {
        self.name = name
        self.sourceURL = sourceURL
    }
}

/// An AutoML Vision Edge model published under a name. Mirrors ML Kit's
/// `AutoMLImageLabelerRemoteModel(name:)`.
///
/// The model source is ``ModelManager/modelSource`` (by default the environment variable
/// `VISION_TASKS_MODEL_SOURCE`), where Firebase was on iOS.
public final class AutoMLImageLabelerRemoteModel: RemoteModel, @unchecked Sendable {
    /// Refers to the model published as `name` on the manager's model source.
    public init(name: String) {
        super.init(name: name, sourceURL: nil)
    }
}

/// A custom TFLite model (or AutoML zip) published on a model source. Mirrors ML Kit's
/// `CustomRemoteModel(remoteModelSource:)`, with ``HTTPModelSource`` in place of
/// `FirebaseModelSource`.
public final class CustomRemoteModel: RemoteModel, @unchecked Sendable {
    /// Refers to the model `remoteModelSource` names.
    public init(remoteModelSource: RemoteModelSource) {
        super.init(name: remoteModelSource.modelName, sourceURL: remoteModelSource.baseURL)
    }
}

/// Where a ``CustomRemoteModel`` is published. Mirrors ML Kit's `RemoteModelSource`; use
/// ``HTTPModelSource``.
public class RemoteModelSource: @unchecked Sendable {
    // @unchecked: immutable `let`s of Sendable types.
    let modelName: String
    let baseURL: URL?

    init(modelName: String, baseURL: URL?) {
        self.modelName = modelName
        self.baseURL = baseURL
    }
}

/// A model published on any HTTP(S) server that serves an `index.json` (nginx, object storage,
/// `python3 -m http.server`). Takes the place of ML Kit's `FirebaseModelSource(name:)`.
public final class HTTPModelSource: RemoteModelSource, @unchecked Sendable {
    /// The model published as `name` at `baseURL`, or at the manager's source when `baseURL` is nil.
    /// - Parameters:
    ///   - name: the model's key in `index.json`.
    ///   - baseURL: the folder URL holding `index.json` (such as `http://host/models/`).
    public init(name: String, baseURL: URL? = nil) {
        super.init(modelName: name, baseURL: baseURL)
    }
}
