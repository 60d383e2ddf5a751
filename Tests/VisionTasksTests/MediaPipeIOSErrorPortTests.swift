import Foundation
import TestSupport
import Testing

import VisionTasks

/// The error cases of MediaPipe's own iOS test suite (`MPPImageClassifierTests.m`), ported to
/// this API with the import and the model path changed, and compared more strictly than there:
/// MediaPipe checks that the expected text occurs in `localizedDescription`; these check that
/// it is all of it. Errors of MediaPipe's C++ core carry the status name; those its
/// Objective-C layer raises (delegates, running modes) do not.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct MediaPipeIOSErrorPortTests {
    static let expectedErrorDomain = "com.google.mediapipe.tasks"

    final class Delegate: ImageClassifierLiveStreamDelegate {
        func imageClassifier(
            _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    func options(runningMode: RunningMode = .image) -> ImageClassifierOptions {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v2_1.0_224_quant_labels.tflite").path
        options.runningMode = runningMode
        return options
    }

    /// A live-stream classifier with its delegate (held weakly by the options: keep it alive).
    func liveStreamClassifier() throws -> (ImageClassifier, Delegate) {
        let options = options(runningMode: .liveStream)
        let delegate = Delegate()
        options.imageClassifierLiveStreamDelegate = delegate
        return (try ImageClassifier(options: options), delegate)
    }

    /// MediaPipe's `AssertEqualErrors`, with equality where it tests containment.
    func expectError(
        _ body: () throws -> Void, code: TasksErrorCode, description: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try body()
            Issue.record("no error; expected \(description)", sourceLocation: sourceLocation)
        } catch {
            let error = error as NSError
            #expect(error.domain == Self.expectedErrorDomain, sourceLocation: sourceLocation)
            #expect(error.code == code.rawValue, sourceLocation: sourceLocation)
            #expect(error.localizedDescription == description, sourceLocation: sourceLocation)
        }
    }

    @Test func createImageClassifierWithMissingModelPathFails() {
        expectError(
            { _ = try ImageClassifier(modelPath: "") }, code: .invalidArgumentError,
            description: "INVALID_ARGUMENT: ExternalFile must specify at least one of 'file_content', "
                + "'file_name', 'file_pointer_meta' or 'file_descriptor_meta'.")
    }

    @Test func createImageClassifierAllowlistAndDenylistFails() {
        let options = options()
        options.categoryAllowlist = ["cheeseburger"]
        options.categoryDenylist = ["bagel"]
        expectError(
            { _ = try ImageClassifier(options: options) }, code: .invalidArgumentError,
            description: "INVALID_ARGUMENT: `category_allowlist` and `category_denylist` are mutually exclusive options.")
    }

    @Test(arguments: [RunningMode.image, .video])
    func createImageClassifierFailsWithDelegateInNonLiveStreamMode(runningMode: RunningMode) {
        let options = options(runningMode: runningMode)
        let delegate = Delegate()
        options.imageClassifierLiveStreamDelegate = delegate
        expectError(
            { _ = try ImageClassifier(options: options) }, code: .invalidArgumentError,
            description: "The vision task is in image or video mode. The delegate must not be set in the task's options.")
        withExtendedLifetime(delegate) {}
    }

    @Test func createImageClassifierFailsWithMissingDelegateInLiveStreamMode() {
        expectError(
            { _ = try ImageClassifier(options: options(runningMode: .liveStream)) }, code: .invalidArgumentError,
            description: "The vision task is in live stream mode. An object must be set as the delegate of the task "
                + "in its options to ensure asynchronous delivery of results.")
    }

    @Test func classifyFailsWithCallingWrongApiInImageMode() throws {
        let classifier = try ImageClassifier(options: options())
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        expectError(
            { try classifier.classifyAsync(image: image, timestampInMilliseconds: 0) }, code: .invalidArgumentError,
            description: "The vision task is not initialized with live stream mode. Current Running Mode: Image")
        expectError(
            { _ = try classifier.classify(videoFrame: image, timestampInMilliseconds: 0) }, code: .invalidArgumentError,
            description: "The vision task is not initialized with video mode. Current Running Mode: Image")
    }

    @Test func classifyFailsWithCallingWrongApiInVideoMode() throws {
        let classifier = try ImageClassifier(options: options(runningMode: .video))
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        expectError(
            { try classifier.classifyAsync(image: image, timestampInMilliseconds: 0) }, code: .invalidArgumentError,
            description: "The vision task is not initialized with live stream mode. Current Running Mode: Video")
        expectError(
            { _ = try classifier.classify(image: image) }, code: .invalidArgumentError,
            description: "The vision task is not initialized with image mode. Current Running Mode: Video")
    }

    @Test func classifyFailsWithCallingWrongApiInLiveStreamMode() throws {
        let (classifier, delegate) = try liveStreamClassifier()
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        expectError(
            { _ = try classifier.classify(image: image) }, code: .invalidArgumentError,
            description: "The vision task is not initialized with image mode. Current Running Mode: Live Stream")
        expectError(
            { _ = try classifier.classify(videoFrame: image, timestampInMilliseconds: 0) }, code: .invalidArgumentError,
            description: "The vision task is not initialized with video mode. Current Running Mode: Live Stream")
        withExtendedLifetime(delegate) {}
    }

    @Test func classifyWithOutOfOrderTimestampsAndLiveStreamModeFails() throws {
        let (classifier, delegate) = try liveStreamClassifier()
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        try classifier.classifyAsync(image: image, timestampInMilliseconds: 1)
        expectError(
            { try classifier.classifyAsync(image: image, timestampInMilliseconds: 0) }, code: .invalidArgumentError,
            description: "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        withExtendedLifetime(delegate) {}
    }
}
