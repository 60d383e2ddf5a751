import ClassificationCore
import Dispatch
import Foundation
import Imaging
import Synchronization
import TasksCommon

/// Labels images with an AutoML Vision Edge or custom TFLite image classification model.
///
/// Mirrors ML Kit's `ImageLabeler` (`imageLabeler(options:)`, `process(_:completion:)`,
/// `results(in:)`), running the same pipeline as `ImageClassifier`: MediaPipe's preprocessing,
/// LiteRT inference, then labels with confidence ≥ the threshold, highest first (ties by
/// index), at most `maxResultCount`.
///
/// As in ML Kit, `imageLabeler(options:)` cannot fail: a bad model or manifest is reported by
/// every `process`/`results(in:)` call. `init(options:)` reports it at once instead. The labeler
/// is `Sendable`; calls are serialized (one LiteRT model and buffer set per labeler).
public final class ImageLabeler: Sendable {
    private let engine: Mutex<Result<ClassifierEngine, TasksError>>
    private let queue = DispatchQueue(label: "ImageLabeler.process")

    /// Creates a labeler; errors in the model or options surface when it is used, as in ML Kit.
    public static func imageLabeler(options: CommonImageLabelerOptions) -> ImageLabeler {
        do throws(TasksError) {
            return ImageLabeler(engine: .success(try LabelerConfiguration(options).makeEngine()))
        } catch {
            return ImageLabeler(engine: .failure(error))
        }
    }

    /// Creates a labeler and checks the model and options now.
    /// - Throws: `TasksError`: notFound or invalidArgument naming the manifest, model or labels
    ///   file at fault (missing file, wrong JSON, unknown model type, label count not matching the
    ///   model's output, a model that is not an image classifier, a path leaving the export
    ///   folder); invalidArgument for a threshold outside [0, 1] or `maxResultCount` < 1;
    ///   failedPrecondition for a remote model that is not downloaded (subject: the model's name).
    public convenience init(options: CommonImageLabelerOptions) throws {
        self.init(engine: .success(try LabelerConfiguration(options).makeEngine()))
    }

    private init(engine: sending Result<ClassifierEngine, TasksError>) {
        self.engine = Mutex(engine)
    }

    /// Labels an image and waits for the result.
    /// - Returns: labels with confidence ≥ the threshold, highest first.
    /// - Throws: `TasksError`: the labeler's creation error, or invalidArgument for the image.
    public func results(in image: VisionImage) throws -> [ImageLabel] {
        try label(Snapshot(image))
    }

    /// Labels an image without blocking the caller; `completion` runs on the main queue, as in
    /// ML Kit, with the labels or the error (so it may update `@MainActor` state).
    ///
    /// On Linux a program must run the main queue for this: `RunLoop.main.run()` drains it on
    /// the main thread; `dispatchMain()` and an async `main` drain it serially on another thread,
    /// so there `Thread.isMainThread` is false in the completion although it is on the main queue
    /// (and the main actor). A program that runs none of these never gets the call: use
    /// `process(_:callbackQueue:completion:)` or `await process(_:)` instead.
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([ImageLabel]?, (any Error)?) -> Void) {
        process(image, callbackQueue: .main, completion: completion)
    }

    /// Labels an image without blocking the caller; `completion` runs on `callbackQueue`.
    public func process(
        _ image: VisionImage, callbackQueue: DispatchQueue,
        completion: @escaping @Sendable ([ImageLabel]?, (any Error)?) -> Void
    ) {
        let snapshot = Snapshot(image)
        queue.async {
            let outcome = Result { () throws(TasksError) in try self.label(snapshot) }
            callbackQueue.async {
                switch outcome {
                case .success(let labels): completion(labels, nil)
                case .failure(let error): completion(nil, error)
                }
            }
        }
    }

    /// Labels an image without blocking a cooperative thread (the work runs on the labeler's
    /// queue): the form Swift gives ML Kit's `process(_:completion:)` as an `async` method.
    /// A separate name from `results(in:)`, so that ML Kit code calling `results(in:)` inside an
    /// `async` function still compiles unchanged.
    /// - Throws: as `results(in:)`.
    public func process(_ image: VisionImage) async throws -> [ImageLabel] {
        let snapshot = Snapshot(image)
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { () throws(TasksError) in try self.label(snapshot) })
            }
        }
    }

    private func label(_ snapshot: Snapshot) throws(TasksError) -> [ImageLabel] {
        try engine.withLock { engine throws(TasksError) in
            let classifications = try engine.get().classify(
                snapshot.pixels, orientation: snapshot.orientation,
                regionOfInterest: .wholeImage)
            return classifications.first?.categories.map {
                ImageLabel(text: $0.categoryName ?? "", confidence: $0.score, index: $0.index)
            } ?? []
        }
    }

    /// The image's pixels and orientation at the moment of the call (`VisionImage` is mutable).
    private struct Snapshot: Sendable {
        let pixels: PixelImage
        let orientation: ImageOrientation
        init(_ image: VisionImage) { (pixels, orientation) = (image.pixels, image.orientation) }
    }
}
