/// Options for creating an `ImageEmbedder`. Mirrors MediaPipe Tasks iOS `ImageEmbedderOptions`.
///
/// A class, as on iOS (`let options = ImageEmbedderOptions(); options.l2Normalize = true`). The
/// embedder copies the values at creation.
public final class ImageEmbedderOptions {
    /// The model and the hardware it runs on.
    public var baseOptions = BaseOptions()
    /// The running mode. Default `.image`.
    public var runningMode: RunningMode = .image
    /// Receives results in `.liveStream` mode (required there, and not allowed in the other
    /// modes, as in MediaPipe). Held weakly, here and by the embedder.
    public weak var imageEmbedderLiveStreamDelegate: (any ImageEmbedderLiveStreamDelegate)?
    /// Whether each embedding is divided by its L2 norm, so that it has unit length. Default
    /// false. Use it when the model does not end in an L2_NORMALIZATION op of its own (most
    /// embedder models do); an all-zero embedding stays all zero.
    public var l2Normalize = false
    /// Whether embeddings are scalar-quantized to one signed byte per value
    /// (`Embedding.quantizedEmbedding`) instead of floats. Default false. The values are assumed
    /// to lie in [-1, 1], as unit-norm embeddings' do: set `l2Normalize` too unless the model
    /// normalizes its output itself (larger values are clamped to -128...127).
    public var quantize = false

    /// Creates options with MediaPipe's defaults.
    public init() {}
}
