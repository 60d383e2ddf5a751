/// What `ImageEmbedder` returns. Mirrors MediaPipe Tasks iOS `ImageEmbedderResult`.
public struct ImageEmbedderResult: Sendable, Equatable {
    /// The embeddings, one per output head.
    public var embeddingResult: EmbeddingResult
    /// The timestamp of the input in milliseconds (the same as `embeddingResult`'s).
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(embeddingResult: EmbeddingResult, timestampInMilliseconds: Int) {
        self.embeddingResult = embeddingResult
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
