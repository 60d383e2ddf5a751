import Foundation
import TaskRuntime
import TasksCommon

/// Computes embeddings (feature vectors) of images with a TFLite model, to compare images with
/// `cosineSimilarity(embedding1:embedding2:)`.
///
/// Mirrors MediaPipe Tasks iOS `ImageEmbedder`, with the same options, results and errors: the
/// classifier's preprocessing (region of interest, rotation, resize, normalization), then one
/// embedding per output tensor ("head"), dequantized, optionally L2-normalized and
/// scalar-quantized as MediaPipe's embedding postprocessing does.
///
/// The model contract (checked at creation): one input `[1, height, width, 3]` of type UINT8,
/// FLOAT32 (needs NormalizationOptions metadata) or INT8, as for `ImageClassifier`; one or more
/// outputs of type FLOAT32 or UINT8 (dequantized with the tensor's scale and zero point), all
/// quantized or none, of any shape: the elements of output `i`, in order, are embedding `i`
/// (1024 values for a `[1, 1, 1, 1024]` output). Metadata is optional; when the output tensors'
/// metadata name them, the names are the `headName`s. Classification models are accepted too:
/// their scores are the embedding. An INT8 output is refused, as in MediaPipe (append a
/// DEQUANTIZE op to the model).
///
/// The embedder is `Sendable`. Calls from several threads are serialized: it owns one LiteRT
/// compiled model with one set of tensor buffers; create one embedder per thread for parallel work.
public final class ImageEmbedder: Sendable {
    /// The running modes, the engine behind its lock, and the live stream.
    let runner: VisionTaskRunner<EmbedderEngine, ImageEmbedderResult>
    /// The model input's width and height in pixels: what `ImageDecoding.fast(covering:regionOfInterest:)`
    /// must cover. (Not in MediaPipe's API.)
    public let inputImageSize: CGSize
    /// The number of elements of each head's embedding, by head index (for the server's output
    /// shape, known before any image is embedded).
    package let embeddingDimensions: [Int]

    /// The running mode the embedder was created with.
    public var runningMode: RunningMode { runner.runningMode }

    /// Creates an image-mode embedder with default options (no L2 normalization, no
    /// quantization) for the model at `modelPath`.
    /// - Throws: `TasksError`; see `init(options:)`.
    public convenience init(modelPath: String) throws {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates an embedder from options. The options are copied; later changes have no effect.
    /// - Throws: `TasksError`: invalidArgument for a missing model, a model that is not a valid
    ///   image embedder (MediaPipe's messages, naming the file: an output neither FLOAT32 nor
    ///   UINT8, quantized and float outputs mixed, output metadata not matching the outputs, an
    ///   unsupported input), the GPU delegate, live-stream mode without a delegate or another
    ///   mode with one (MediaPipe iOS's messages); notFound for a missing model file or a float
    ///   model without NormalizationOptions.
    public convenience init(options: ImageEmbedderOptions) throws {
        try options.checkLiveStreamDelegate(streaming: false)
        try self.init(options: options, stream: nil)
    }

    /// Creates the embedder; in live-stream mode results go to the options' delegate and `stream`.
    init(options: ImageEmbedderOptions, stream: AsyncStream<ImageEmbedderLiveStreamResult>.Continuation?) throws {
        let base = options.baseOptions
        guard base.delegate == .CPU else {
            throw TasksError.invalidArgument(
                "The GPU delegate is not available on Linux; use Delegate.CPU.",
                subject: .option("delegate"))
        }
        let configuration = EmbedderConfiguration(
            asset: try ModelAsset(path: base.modelAssetPath, buffer: base.modelAssetBuffer),
            threadCount: base.threadCount, l2Normalize: options.l2Normalize, quantize: options.quantize)
        let engine = try EmbedderEngine(configuration)
        inputImageSize = CGSize(width: engine.inputSize.width, height: engine.inputSize.height)
        embeddingDimensions = engine.heads.map(\.dimension)
        let owner = WeakReference<ImageEmbedder>()
        let delivery = Self.liveStreamDelivery(
            owner: owner, delegate: options.imageEmbedderLiveStreamDelegate, stream: stream)
        runner = VisionTaskRunner(
            runningMode: options.runningMode, engine: engine, task: "image embedder",
            process: { engine, image, region, timestamp throws(TasksError) in
                let embeddings = try engine.embed(image.pixels, orientation: image.orientation, regionOfInterest: region)
                return ImageEmbedderResult(
                    embeddingResult: EmbeddingResult(embeddings: embeddings, timestampInMilliseconds: timestamp),
                    timestampInMilliseconds: timestamp)
            },
            deliver: delivery, finished: { stream?.finish() })
        owner.object = self
    }

    /// Embeds an image. Requires `RunningMode.image`.
    /// - Parameter image: the image; its `orientation` is applied before embedding.
    /// - Returns: one embedding per head; timestamps are synthetic (0, 1000, 2000 ms...).
    /// - Throws: `TasksError` invalidArgument when the embedder is not in image mode.
    public func embed(image: MPImage) throws -> ImageEmbedderResult {
        try embed(image: image, regionOfInterest: .zero)
    }

    /// Embeds the region of interest of an image. Requires `RunningMode.image`.
    /// - Parameters:
    ///   - image: the image; its `orientation` is applied after cropping.
    ///   - regionOfInterest: normalized [0, 1] rectangle with a top-left origin in the coordinates
    ///     of the stored (unrotated) pixels; `CGRect.zero` means the whole image, as on iOS.
    /// - Returns: one embedding per head for the region.
    /// - Throws: `TasksError` invalidArgument when not in image mode, or for a region that is
    ///   empty or extends outside [0, 1] (MediaPipe iOS does not check; its C++ API does).
    public func embed(image: MPImage, regionOfInterest: CGRect) throws -> ImageEmbedderResult {
        try runner.processImage(image, regionOfInterest: regionOfInterest)
    }

    /// The cosine similarity of two embeddings, `u·v / (‖u‖ ‖v‖)`, computed in double precision:
    /// 1 for embeddings pointing the same way, 0 for orthogonal ones, -1 for opposite ones. Both
    /// float embeddings are compared when both are set, else both quantized ones.
    /// Mirrors MediaPipe Tasks iOS `ImageEmbedder.cosineSimilarity(embedding1:embedding2:)`,
    /// with the checks of its C++ core.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages: "Cannot compute cosine
    ///   similarity between quantized and float embeddings.", "... between embeddings of
    ///   different sizes (1280 vs. 1024).", "Cannot compute cosing similarity on empty
    ///   embeddings." (sic) and "Cannot compute cosine similarity on embedding with 0 norm.".
    public static func cosineSimilarity(embedding1: Embedding, embedding2: Embedding) throws -> Double {
        try Embedding.cosineSimilarity(embedding1, embedding2)
    }
}

extension ImageEmbedderOptions: VisionTaskOptions {
    var hasLiveStreamDelegate: Bool { imageEmbedderLiveStreamDelegate != nil }
    static var liveStreamDelegateOption: String { "imageEmbedderLiveStreamDelegate" }
}
