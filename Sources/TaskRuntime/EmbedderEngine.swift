import Imaging
import TasksCommon

/// Everything an embedder needs from its options, copied at creation.
package struct EmbedderConfiguration: Sendable {
    /// The model.
    package var asset: ModelAsset
    /// CPU threads for inference, 1...64.
    package var threadCount: Int
    /// Whether each embedding is divided by its L2 norm.
    package var l2Normalize: Bool
    /// Whether embeddings are scalar-quantized to `Int8`.
    package var quantize: Bool

    package init(asset: ModelAsset, threadCount: Int, l2Normalize: Bool = false, quantize: Bool = false) {
        self.asset = asset
        self.threadCount = threadCount
        self.l2Normalize = l2Normalize
        self.quantize = quantize
    }
}

/// The embedding pipeline of `ImageEmbedder`: the classifier's model loading, input checks,
/// preprocessing and inference (`ImageModelRunner`), then one embedding per output tensor, as
/// MediaPipe's embedding postprocessing makes it (dequantization of UINT8 outputs, optional L2
/// normalization and scalar quantization).
///
/// Accepts what MediaPipe's `ImageEmbedder` accepts: embedder models, with or without metadata,
/// and classification models (whose scores are then the embedding); like the classifier, it
/// also takes per-channel normalization and INT8 inputs.
///
/// Not `Sendable` and not reentrant (it owns LiteRT buffers); the task types serialize calls.
package final class EmbedderEngine {
    private let runner: ImageModelRunner
    /// The output heads, in output order.
    package let heads: [EmbeddingHead]
    private let l2Normalize: Bool
    private let quantize: Bool
    /// The dequantized values of the head being postprocessed, sized for the largest head.
    private let scratch: UnsafeMutableBufferPointer<Float>

    /// Loads, checks and compiles the model.
    /// - Throws: `TasksError` for an unreadable or invalid model and MediaPipe's errors for
    ///   unsupported inputs and outputs (an output neither FLOAT32 nor UINT8, quantized and float
    ///   outputs mixed, output metadata that does not match the outputs); each names the model
    ///   file as its subject.
    package init(_ configuration: EmbedderConfiguration) throws(TasksError) {
        let asset = configuration.asset
        do throws(TasksError) {
            let loaded = try LoadedImageModel(bytes: asset.bytes, modelKind: "Embedding")
            heads = try EmbeddingHead.heads(outputs: loaded.model.outputs, metadata: loaded.subgraph)
            runner = try ImageModelRunner(loaded, threadCount: configuration.threadCount, subject: asset.subject)
        } catch {
            throw asset.subject.map { error.naming($0) } ?? error
        }
        l2Normalize = configuration.l2Normalize
        quantize = configuration.quantize
        scratch = .allocate(capacity: max(heads.map(\.dimension).max() ?? 0, 1))
    }

    deinit { scratch.deallocate() }

    /// The model input's width and height in pixels.
    package var inputSize: (width: Int, height: Int) { (runner.input.width, runner.input.height) }

    /// Embeds one image. Once an image of the same size and geometry was embedded, nothing is
    /// allocated but the returned embeddings.
    /// - Parameters:
    ///   - image: the pixels.
    ///   - orientation: how the pixels must be turned to be upright.
    ///   - regionOfInterest: the region of the stored pixels to embed.
    /// - Returns: one `Embedding` per head, in head order: float values, or quantized ones when
    ///   the configuration says `quantize`.
    /// - Throws: `TasksError` when LiteRT fails to run the model (naming the model file).
    package func embed(
        _ image: PixelImage, orientation: ImageOrientation,
        regionOfInterest: RegionOfInterest
    ) throws(TasksError) -> [Embedding] {
        try runner.run(image, orientation: orientation, regionOfInterest: regionOfInterest)
        var embeddings: [Embedding] = []
        embeddings.reserveCapacity(heads.count)
        for head in heads {
            embeddings.append(
                try runner.withOutput(head.index) { bytes in
                    head.embedding(from: bytes, scratch: scratch, l2Normalize: l2Normalize, quantize: quantize)
                })
        }
        return embeddings
    }

    /// Runs the model on the input as the last `embed` left it, and nothing else: LiteRT's own
    /// time, to tell it from the pipeline's (as `ClassifierEngine.runModelOnly()`).
    /// - Throws: `TasksError` when LiteRT fails to run the model.
    package func runModelOnly() throws(TasksError) {
        try runner.runModelOnly()
    }
}
