import Foundation
import Imaging
import TaskRuntime
import TasksCommon

/// Classifies images with a TFLite image classification model.
///
/// Mirrors MediaPipe Tasks iOS `ImageClassifier`, with the same options, results, errors and
/// postprocessing (dequantization, score calibration, category filter, score threshold,
/// score-descending sort with ties by index, top-k; one entry per output head).
///
/// The model contract (checked at creation): one input `[1, height, width, 3]` of type UINT8
/// (bytes used as they are), FLOAT32 (needs NormalizationOptions metadata, one value or one per
/// channel) or INT8 (normalized, then quantized with the tensor's scale and zero point);
/// outputs of N scores (`[N]`, `[1, N]`, `[1, 1, N]`, `[1, 1, 1, N]`: every dimension but the
/// last equal to 1) of type FLOAT32, UINT8 or INT8 (dequantized); labels, display names and
/// score calibration from TFLite Model Metadata when present. Per-channel normalization and
/// INT8 models are extensions: MediaPipe refuses them (see <doc:ModelsAndMetadata>).
///
/// The classifier is `Sendable`. Calls from several threads are serialized: it owns one
/// LiteRT compiled model with one set of tensor buffers, and inference already uses
/// `BaseOptions.threadCount` threads; create one classifier per thread for parallel work.
public final class ImageClassifier: Sendable {
    /// The running modes, the engine behind its lock, and the live stream.
    let runner: VisionTaskRunner<ClassifierEngine, ImageClassifierResult>
    /// The model input's width and height in pixels: what `ImageDecoding.fast(covering:regionOfInterest:)`
    /// must cover. (Not in MediaPipe's API.)
    public let inputImageSize: CGSize
    /// The first head's category names (its labels), in output order; empty when it has none.
    /// (Not in MediaPipe's API: `evaluate` checks a dataset's classes against them.)
    package let categoryNames: [String]

    /// The running mode the classifier was created with.
    public var runningMode: RunningMode { runner.runningMode }

    /// Creates an image-mode classifier with default options for the model at `modelPath`.
    /// - Throws: `TasksError`; see `init(options:)`.
    public convenience init(modelPath: String) throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// Creates a classifier from options. The options are copied; later changes have no effect.
    /// - Throws: `TasksError`: invalidArgument for a missing model, a model that is not a valid
    ///   image classifier (the message names the file and the tensor at fault), `maxResults == 0`,
    ///   a NaN `scoreThreshold`, both category lists, category lists without labels, an allowlist naming no label of the
    ///   model, the GPU delegate, live-stream mode without a delegate or another mode with one
    ///   (MediaPipe iOS's messages); notFound for a missing
    ///   model file or a float model without NormalizationOptions; unimplemented for per-channel
    ///   normalization.
    public convenience init(options: ImageClassifierOptions) throws {
        try options.checkLiveStreamDelegate(streaming: false)
        try self.init(options: options, stream: nil)
    }

    /// Creates the classifier; in live-stream mode results go to the options' delegate and `stream`.
    init(options: ImageClassifierOptions, stream: AsyncStream<LiveStreamResult>.Continuation?) throws {
        let base = options.baseOptions
        guard base.delegate == .CPU else {
            throw TasksError.invalidArgument(
                "The GPU delegate is not available on Linux; use Delegate.CPU.",
                subject: .option("delegate"))
        }
        guard !options.scoreThreshold.isNaN else {
            throw TasksError.invalidArgument(
                "Invalid `score_threshold` option: value must be a number, got NaN.",
                subject: .option("scoreThreshold"))
        }
        let configuration = ClassifierConfiguration(
            asset: try ModelAsset(path: base.modelAssetPath, buffer: base.modelAssetBuffer),
            threadCount: base.threadCount, displayNamesLocale: options.displayNamesLocale,
            maxResults: options.maxResults, scoreThreshold: .value(options.scoreThreshold),
            categoryAllowlist: options.categoryAllowlist, categoryDenylist: options.categoryDenylist)
        let engine = try ClassifierEngine(configuration)
        inputImageSize = CGSize(width: engine.inputSize.width, height: engine.inputSize.height)
        categoryNames = engine.heads.first?.labels ?? []
        let owner = WeakReference<ImageClassifier>()
        let delivery = Self.liveStreamDelivery(
            owner: owner, delegate: options.imageClassifierLiveStreamDelegate, stream: stream)
        runner = VisionTaskRunner(
            runningMode: options.runningMode, engine: engine, task: "image classifier",
            process: { engine, image, region, timestamp throws(TasksError) in
                let heads = try engine.classify(image.pixels, orientation: image.orientation, regionOfInterest: region)
                return ImageClassifierResult(
                    classificationResult: ClassificationResult(classifications: heads, timestampInMilliseconds: timestamp),
                    timestampInMilliseconds: timestamp)
            },
            deliver: delivery, finished: { stream?.finish() })
        owner.object = self
    }

    /// Classifies an image. Requires `RunningMode.image`.
    /// - Parameter image: the image; its `orientation` is applied before classification.
    /// - Returns: the classifications of every head; timestamps are synthetic (0, 1000, 2000 ms...).
    /// - Throws: `TasksError` invalidArgument when the classifier is not in image mode.
    public func classify(image: MPImage) throws -> ImageClassifierResult {
        try classify(image: image, regionOfInterest: .zero)
    }

    /// Classifies the region of interest of an image. Requires `RunningMode.image`.
    /// - Parameters:
    ///   - image: the image; its `orientation` is applied after cropping.
    ///   - regionOfInterest: normalized [0, 1] rectangle with a top-left origin in the coordinates
    ///     of the stored (unrotated) pixels; `CGRect.zero` means the whole image, as on iOS.
    /// - Returns: the classifications of every head for the region.
    /// - Throws: `TasksError` invalidArgument when not in image mode, or for a region that is
    ///   empty or extends outside [0, 1] (MediaPipe iOS does not check; its C++ API does).
    public func classify(image: MPImage, regionOfInterest: CGRect) throws -> ImageClassifierResult {
        try runner.processImage(image, regionOfInterest: regionOfInterest)
    }
}

extension ImageClassifierOptions: VisionTaskOptions {
    var hasLiveStreamDelegate: Bool { imageClassifierLiveStreamDelegate != nil }
    static var liveStreamDelegateOption: String { "imageClassifierLiveStreamDelegate" }
}
