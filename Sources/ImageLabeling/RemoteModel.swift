/// A model hosted remotely and downloaded by `ModelManager`. Mirrors ML Kit's `RemoteModel`.
///
/// Remote models are not available in this version: a labeler created from one fails with
/// `unimplementedError` when it is used.
public class RemoteModel {
    /// The name the model was published under.
    public let name: String

    init(name: String) {
        self.name = name
    }
}

/// An AutoML Vision Edge model published under a name. Mirrors ML Kit's
/// `AutoMLImageLabelerRemoteModel(name:)`; not available yet (see `RemoteModel`).
public final class AutoMLImageLabelerRemoteModel: RemoteModel {
    /// Refers to the model published as `name`.
    public override init(name: String) {
        super.init(name: name)
    }
}
