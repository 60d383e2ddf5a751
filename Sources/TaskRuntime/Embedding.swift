/// The embedding of one output head (one output tensor) of the model.
/// Mirrors MediaPipe Tasks iOS `Embedding`.
///
/// Exactly one of `floatEmbedding` and `quantizedEmbedding` is set by an embedder: the float
/// values, or, when the embedder quantizes, the scalar-quantized ones. Both hold one value per
/// element of the output tensor, in the tensor's order (the product of its dimensions: 1024 for
/// a `[1, 1, 1, 1024]` output).
public struct Embedding: Sendable, Equatable {
    /// The embedding as floats, after dequantization (for UINT8 outputs) and, with
    /// `l2Normalize`, divided by its L2 norm. Nil when the embedder quantizes.
    public var floatEmbedding: [Float]?
    /// The embedding scalar-quantized: each float `x` (after L2 normalization, if set) becomes
    /// `round(x · 128)` clamped to -128...127, rounding halves away from zero. Meant for
    /// unit-norm embeddings, whose values lie in [-1, 1]. Nil when the embedder does not quantize.
    public var quantizedEmbedding: [Int8]?
    /// The index of the head (the output tensor), 0-based.
    public var headIndex: Int
    /// The head's name from the output tensor metadata; nil when the model's metadata names no
    /// output (as MediaPipe iOS reports it), `""` for an unnamed head of a model that names
    /// another.
    public var headName: String?

    /// Creates the embedding of one head.
    public init(floatEmbedding: [Float]?, quantizedEmbedding: [Int8]?, headIndex: Int, headName: String?) {
        self.floatEmbedding = floatEmbedding
        self.quantizedEmbedding = quantizedEmbedding
        self.headIndex = headIndex
        self.headName = headName
    }
}
