/// The embeddings of all heads for one image or frame.
/// Mirrors MediaPipe Tasks iOS `EmbeddingResult`.
public struct EmbeddingResult: Sendable, Equatable {
    /// One embedding per output head, in head order.
    public var embeddings: [Embedding]
    /// The timestamp of the input in milliseconds (synthetic in image mode: 0, 1000, 2000, ...).
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(embeddings: [Embedding], timestampInMilliseconds: Int) {
        self.embeddings = embeddings
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
