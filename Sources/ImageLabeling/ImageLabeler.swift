import Dispatch
import Foundation
import Imaging
import Synchronization
import TaskRuntime
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

    /// Labels an image without blocking the caller; `completion` runs on the main actor, as ML
    /// Kit calls it on the main thread, with the labels or the error. Being `@MainActor`, it may
    /// update main-actor state, as ML Kit's guide does from a view controller
    /// (`self.resultsText = ...`), under Swift 6's strict concurrency.
    ///
    /// On Linux the main actor runs on the main dispatch queue, so a program must run that queue
    /// for the call to happen: `RunLoop.main.run()` runs it on the main thread; `dispatchMain()`
    /// and an async `main` (as the test runner) run it serially on another thread, where
    /// `Thread.isMainThread` is false although the completion is on the main actor. A program
    /// that runs none of these never gets the call: use `process(_:callbackQueue:completion:)`
    /// or `await process(_:)` instead.
    /// - Parameters:
    ///   - image: the image; its pixels and orientation are taken when the call starts.
    ///   - completion: called once, with labels as `results(in:)` returns them and a nil error,
    ///     or nil labels and the `TasksError` `results(in:)` throws.
    public func process(_ image: VisionImage, completion: @escaping @MainActor ([ImageLabel]?, (any Error)?) -> Void) {
        enqueue(image) { outcome in
            Task { @MainActor in Self.report(outcome, to: completion) }
        }
    }

    /// Labels an image without blocking the caller; `completion` runs on `callbackQueue`. Not in
    /// ML Kit: for programs that do not run the main queue.
    /// - Parameters:
    ///   - image: the image; its pixels and orientation are taken when the call starts.
    ///   - callbackQueue: where `completion` runs.
    ///   - completion: as in `process(_:completion:)`.
    public func process(
        _ image: VisionImage, callbackQueue: DispatchQueue,
        completion: @escaping @Sendable ([ImageLabel]?, (any Error)?) -> Void
    ) {
        enqueue(image) { outcome in
            callbackQueue.async { Self.report(outcome, to: completion) }
        }
    }

    /// Labels `image` on the labeler's queue, then hands the outcome to `deliver` there.
    private func enqueue(_ image: VisionImage, deliver: @escaping @Sendable (Result<[ImageLabel], TasksError>) -> Void) {
        let snapshot = Snapshot(image)
        queue.async {
            deliver(Result { () throws(TasksError) in try self.label(snapshot) })
        }
    }

    /// Calls an ML Kit-style completion: labels and no error, or no labels and the error.
    private static func report(
        _ outcome: Result<[ImageLabel], TasksError>, to completion: ([ImageLabel]?, (any Error)?) -> Void
    ) {
        switch outcome {
        case .success(let labels): completion(labels, nil)
        case .failure(let error): completion(nil, error)
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
