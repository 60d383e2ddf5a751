import Foundation
import ImageLabeling  // ML Kit: import MLKit
import TestSupport
import Testing

/// The Swift code of ML Kit's guide "Label images with an AutoML-trained model on iOS",
/// changed only in the import and the image creation (no UIImage on Linux).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct PortingTests {
    @Test func guideCodeCompilesAndRuns() throws {
        let export = try AutoMLExport()
        let manifestPath = export.manifestPath
        let imagePath = TestData.image("burger.jpg").path
        var seen: [(String, Float, Int)] = []

        // --- From the guide ---
        let localModel = AutoMLImageLabelerLocalModel(manifestPath: manifestPath)
        let options = AutoMLImageLabelerOptions(localModel: localModel)
        options.confidenceThreshold = NSNumber(value: 0.0)  // Evaluate your model in the Firebase console
        // to determine an appropriate value.
        let imageLabeler = ImageLabeler.imageLabeler(options: options)

        let image = try VisionImage(contentsOfFile: imagePath)  // ML Kit: VisionImage(image: uiImage)
        image.orientation = .up  // ML Kit: image.imageOrientation

        var labels: [ImageLabel]
        do {
            labels = try imageLabeler.results(in: image)
        } catch let error {
            print("Failed to get image labels with error: \(error.localizedDescription).")
            Issue.record(error)
            return
        }
        for label in labels {
            let labelText = label.text
            let confidence = label.confidence
            let index = label.index
            seen.append((labelText, confidence, index))
        }
        // --- End of the guide's code ---

        #expect(seen.count == 5)
        #expect(seen.first?.0 == "roses")
        #expect(seen.first?.2 == 2)
        #expect(abs((seen.first?.1 ?? 0) - 0.96484375) <= 1.0 / 256)
    }

    /// `process(_:completion:)` as the guide writes it, with the callback on a queue we give.
    @Test func processCallsBackWithTheLabels() async throws {
        let export = try AutoMLExport()
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.confidenceThreshold = NSNumber(value: 0.0)
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        let image = try VisionImage(contentsOf: TestData.image("burger.jpg"))
        let queue = DispatchQueue(label: "test.callbacks")
        let labels: [ImageLabel] = try await withCheckedThrowingContinuation { continuation in
            imageLabeler.process(image, callbackQueue: queue) { labels, error in
                dispatchPrecondition(condition: .onQueue(queue))
                guard error == nil, let labels = labels else {
                    continuation.resume(throwing: error ?? TasksError.internal("no labels and no error"))
                    return
                }
                continuation.resume(returning: labels)
            }
        }
        #expect(try labels == imageLabeler.results(in: image))
        #expect(labels.first?.text == "roses")
    }

    /// The guide's `process(_:completion:)` in a `@MainActor` view controller, whose completion
    /// sets the controller's state (Swift 6 strict concurrency). ML Kit calls it on the main
    /// thread; here on the main actor, which Linux runs on the main queue: drained on the main
    /// thread by a run loop, and serially on another thread under `dispatchMain()` or an async
    /// `main` (as in this test runner), so the check is the queue, not `Thread.isMainThread`.
    @MainActor @Test(.hangGuard) func completionUpdatesMainActorStateOnTheMainQueue() async throws {
        let export = try AutoMLExport()
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.confidenceThreshold = NSNumber(value: 0.0)
        let controller = LabelingViewController(labeler: ImageLabeler.imageLabeler(options: options))
        let image = try VisionImage(contentsOf: TestData.image("burger.jpg"))
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "main")
        await withCheckedContinuation { continuation in
            controller.label(image) {
                controller.completionQueue = DispatchQueue.getSpecific(key: key)
                continuation.resume()
            }
        }
        #expect(controller.completionQueue == "main")
        let expected = try controller.labeler.results(in: image)
        #expect(expected.count == 5)
        #expect(controller.resultsText == expected.map { "\($0.text) \($0.confidence) \($0.index)" }.joined(separator: "\n"))
    }

    @Test func processReportsCreationErrors() async throws {
        let options = AutoMLImageLabelerOptions(
            localModel: AutoMLImageLabelerLocalModel(manifestPath: "/nonexistent/manifest.json"))
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        let image = try VisionImage(contentsOf: TestData.image("burger.jpg"))
        let error: (any Error)? = await withCheckedContinuation { continuation in
            imageLabeler.process(image, callbackQueue: DispatchQueue(label: "test")) { labels, error in
                #expect(labels == nil)
                continuation.resume(returning: error)
            }
        }
        #expect((error as? TasksError)?.code == .notFoundError)
    }

    @Test func asyncResultsMatchSynchronousOnes() async throws {
        let export = try AutoMLExport()
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.confidenceThreshold = 0
        let labeler = try ImageLabeler(options: options)
        let image = try VisionImage(contentsOf: TestData.image("dogs.jpg"))
        let asynchronous = try await labeler.process(image)
        #expect(try asynchronous == labeler.results(in: image))
        #expect(asynchronous.count == 5)
    }
}

/// Custom models (ML Kit's `LocalModel` + `CustomImageLabelerOptions`): labels from metadata.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct CustomModelTests {
    func labeler(_ model: String, threshold: NSNumber? = nil, maxResultCount: Int = 10) throws -> ImageLabeler {
        let options = CustomImageLabelerOptions(localModel: LocalModel(path: TestData.model(model).path))
        options.confidenceThreshold = threshold
        options.maxResultCount = maxResultCount
        return try ImageLabeler(options: options)
    }

    @Test func labelsComeFromMetadata() throws {
        let labels = try labeler("mobilenet_v1_0.25_224_quant.tflite", maxResultCount: 3)
            .results(in: VisionImage(contentsOf: TestData.image("burger.jpg")))
        #expect(labels.count == 3)
        #expect(labels.first?.text == "cheeseburger")
        #expect(labels.first?.index == 934)
        #expect(abs((labels.first?.confidence ?? 0) - 0.97265625) <= 1.0 / 256)
    }

    /// nil threshold: the metadata's (none in this model), else 0 — so every category scoring
    /// at least 0 is kept, up to `maxResultCount` (default 10).
    @Test func defaultThresholdIsZeroWithoutMetadataThreshold() throws {
        let labels = try labeler("mobilenet_v1_0.25_224_quant.tflite").results(
            in: VisionImage(contentsOf: TestData.image("burger.jpg")))
        #expect(labels.count == 10)
        #expect(labels.last.map { $0.confidence >= 0 } == true)
    }

    @Test func explicitThresholdKeepsOnlyConfidentLabels() throws {
        let labels = try labeler("mobilenet_v1_0.25_224_quant.tflite", threshold: 0.5)
            .results(in: VisionImage(contentsOf: TestData.image("burger.jpg")))
        #expect(labels.map(\.text) == ["cheeseburger"])
    }

    /// A model without labels gives empty texts with real indices and confidences.
    @Test func modelWithoutLabelsGivesEmptyTexts() throws {
        let labels = try labeler("mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite", maxResultCount: 1)
            .results(in: VisionImage(contentsOf: TestData.image("burger.jpg")))
        #expect(labels == [ImageLabel(text: "", confidence: 0.97265625, index: 934)])
    }
}

/// A view controller as the guide writes one (`UIViewController` is `@MainActor`): the labeling
/// completion sets `resultsText`, main-actor state.
@MainActor
final class LabelingViewController {
    let labeler: ImageLabeler
    var resultsText = ""
    var completionQueue: String?

    init(labeler: ImageLabeler) { self.labeler = labeler }

    func label(_ image: VisionImage, then done: @escaping @MainActor () -> Void) {
        // --- From the guide ---
        labeler.process(image) { labels, error in
            defer { done() }  // not in the guide: tells the test the completion ran
            guard error == nil, let labels = labels else { return }
            // Task succeeded.
            self.resultsText = labels.map { label in
                let labelText = label.text
                let confidence = label.confidence
                let index = label.index
                return "\(labelText) \(confidence) \(index)"
            }.joined(separator: "\n")
        }
        // --- End of the guide's code ---
    }
}
