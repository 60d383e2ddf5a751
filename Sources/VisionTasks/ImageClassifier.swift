import Foundation
import Synchronization
import TasksCommon

/// Classifies images with a TFLite image classification model.
///
/// Mirrors MediaPipe Tasks iOS `ImageClassifier`, with the same options, results, errors and
/// postprocessing (dequantization, score calibration, category filter, score threshold,
/// score-descending sort with ties by index, top-k; one entry per output head).
///
/// The model contract (checked at creation): one input `[1, height, width, 3]` of type UINT8
/// (bytes used as they are) or FLOAT32 (needs NormalizationOptions metadata); outputs `[1, N]` or
/// `[1, 1, 1, N]` of type FLOAT32 or UINT8 (dequantized); labels, display names and score
/// calibration from TFLite Model Metadata when present.
///
/// The classifier is `Sendable`. Calls from several threads are serialized: it owns one
/// LiteRT compiled model with one set of tensor buffers, and inference already uses
/// `BaseOptions.threadCount` threads; create one classifier per thread for parallel work.
public final class ImageClassifier: Sendable {
    private struct State: ~Copyable {
        let engine: ClassifierEngine
        /// The next synthetic timestamp in image mode (MediaPipe: 0, 1000, 2000 ms, ...).
        var nextImageTimestamp = 0
    }

    private let state: Mutex<State>
    /// The running mode the classifier was created with.
    public let runningMode: RunningMode

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
    ///   both category lists, category lists without labels, an allowlist naming no label of the
    ///   model, the GPU delegate, or live-stream mode without a delegate; notFound for a missing
    ///   model file or a float model without NormalizationOptions; unimplemented for per-channel
    ///   normalization.
    public init(options: ImageClassifierOptions) throws {
        let base = options.baseOptions
        guard base.delegate == .CPU else {
            throw TasksError.invalidArgument("The GPU delegate is not available on Linux; use Delegate.CPU.")
        }
        if options.runningMode == .liveStream {
            throw TasksError.invalidArgument("The vision task is in live stream mode. An object must be set as the "
                + "delegate of the task in its options to ensure asynchronous delivery of results.")
        }
        let configuration = ClassifierConfiguration(
            asset: try ModelAsset(path: base.modelAssetPath, buffer: base.modelAssetBuffer),
            threadCount: base.threadCount, displayNamesLocale: options.displayNamesLocale ?? "en",
            maxResults: options.maxResults, scoreThreshold: .value(options.scoreThreshold),
            categoryAllowlist: options.categoryAllowlist, categoryDenylist: options.categoryDenylist)
        state = Mutex(State(engine: try ClassifierEngine(configuration)))
        runningMode = options.runningMode
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
        try requireMode(.image, method: "image")
        return try state.withLock { state throws(TasksError) in
            let timestamp = state.nextImageTimestamp
            let result = try classify(image, regionOfInterest: regionOfInterest, timestamp: timestamp, engine: state.engine)
            state.nextImageTimestamp += 1000
            return result
        }
    }

    private func classify(_ image: MPImage, regionOfInterest: CGRect, timestamp: Int,
                          engine: borrowing ClassifierEngine) throws(TasksError) -> ImageClassifierResult {
        let region = regionOfInterest == .zero ? nil : regionOfInterest
        let heads = try engine.classify(image.pixels, orientation: image.orientation, regionOfInterest: region)
        return ImageClassifierResult(
            classificationResult: ClassificationResult(classifications: heads, timestampInMilliseconds: timestamp),
            timestampInMilliseconds: timestamp)
    }

    private func requireMode(_ mode: RunningMode, method: String) throws(TasksError) {
        guard runningMode == mode else {
            throw .invalidArgument("The vision task is not initialized with \(method) mode. Current Running Mode: \(runningMode)")
        }
    }
}
