import ImageTasks

/// What a served model does: the kind the server's model list and metadata show
/// (`"classifier"`, `"labeler"`, `"embedder"`), and from it the verb of its v1 route. A new task
/// adds a case here and its `ServedTask` conformance.
package enum ServedTaskKind: String, Sendable, CaseIterable, Encodable {
    /// MediaPipe's `ImageClassifier` (`ServedClassifier`).
    case classifier
    /// ML Kit's AutoML image labeler (`ServedLabeler`).
    case labeler
    /// MediaPipe's `ImageEmbedder` (`ServedEmbedder`).
    case embedder

    /// The task as model metadata names it and as the verb of the model's v1 route
    /// (`POST /v1/models/NAME/VERB`): "classify" (classifiers and labelers) or "embed".
    package var verb: String {
        switch self {
        case .classifier, .labeler: "classify"
        case .embedder: "embed"
        }
    }

    /// Every route verb (`Route` matches these).
    package static var verbs: Set<String> { Set(allCases.map(\.verb)) }

    /// "a classifier", "a labeler", "an embedder", for messages.
    package var withArticle: String { self == .embedder ? "an \(rawValue)" : "a \(rawValue)" }
}
