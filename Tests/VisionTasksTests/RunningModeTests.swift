import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Video mode, and MediaPipe's rules tying methods, delegates and timestamps to running modes.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct RunningModeTests {
    static let model = "mobilenet_v1_0.25_224_quant.tflite"

    final class Receiver: ImageClassifierLiveStreamDelegate {
        func imageClassifier(
            _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    func classifier(_ mode: RunningMode, delegate: Receiver? = nil) throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(Self.model).path
        options.runningMode = mode
        options.imageClassifierLiveStreamDelegate = delegate
        return try ImageClassifier(options: options)
    }

    @Test func videoFramesCarryTheirTimestamps() throws {
        let classifier = try classifier(.video)
        let burger = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let expected = try fullClassifier(Self.model).classify(image: burger).classificationResult.classifications[0].categories[
            0]
        for timestamp in [0, 33, 67, 1000] {
            let result = try classifier.classify(videoFrame: burger, timestampInMilliseconds: timestamp)
            #expect(result.timestampInMilliseconds == timestamp)
            #expect(result.classificationResult.timestampInMilliseconds == timestamp)
            #expect(result.classificationResult.classifications[0].categories.first == expected)
        }
    }

    @Test(arguments: [[5, 5], [5, 4], [10, 20, 15]])
    func videoTimestampsMustIncrease(timestamps: [Int]) throws {
        let classifier = try classifier(.video)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        for timestamp in timestamps.dropLast() {
            _ = try classifier.classify(videoFrame: image, timestampInMilliseconds: timestamp)
        }
        let error = #expect(throws: TasksError.self) {
            try classifier.classify(videoFrame: image, timestampInMilliseconds: timestamps.last!)
        }
        #expect(error?.description == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
    }

    @Test func videoRegionOfInterest() throws {
        let classifier = try classifier(.video)
        let image = try MPImage(contentsOf: TestData.image("multi_objects.jpg"))
        let result = try classifier.classify(
            videoFrame: image, timestampInMilliseconds: 1,
            regionOfInterest: CGRect(x: 0.45, y: 0.3075, width: 0.164, height: 0.427))
        #expect(result.classificationResult.classifications[0].categories.first?.categoryName == "soccer ball")
    }

    @Test func methodsOfAnotherModeAreRejected() throws {
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let receiver = Receiver()
        let imageMode = try classifier(.image)
        let videoMode = try classifier(.video)
        let liveMode = try classifier(.liveStream, delegate: receiver)
        let expectations: [(() throws -> Void, String)] = [
            (
                { _ = try imageMode.classify(videoFrame: image, timestampInMilliseconds: 0) },
                "The vision task is not initialized with video mode. Current Running Mode: Image"
            ),
            (
                { try imageMode.classifyAsync(image: image, timestampInMilliseconds: 0) },
                "The vision task is not initialized with live stream mode. Current Running Mode: Image"
            ),
            (
                { _ = try videoMode.classify(image: image) },
                "The vision task is not initialized with image mode. Current Running Mode: Video"
            ),
            (
                { _ = try liveMode.classify(videoFrame: image, timestampInMilliseconds: 0) },
                "The vision task is not initialized with video mode. Current Running Mode: Live Stream"
            ),
        ]
        for (call, message) in expectations {
            let error = #expect(throws: TasksError.self) { try call() }
            #expect(error?.code == .invalidArgumentError)
            #expect(error?.message == message)
        }
        withExtendedLifetime(receiver) {}
    }

    @Test(arguments: [RunningMode.image, .video])
    func delegateOutsideLiveStreamIsRejected(mode: RunningMode) throws {
        let receiver = Receiver()
        let error = #expect(throws: TasksError.self) { try classifier(mode, delegate: receiver) }
        #expect(
            error?.message == "The vision task is in image or video mode. The delegate must not be set in the task's options.")
    }
}

/// The `async` forms give the blocking forms' answers, and frames tagged with an orientation
/// classify like the upright frame in video and live-stream modes too.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct AsyncAndOrientedFrameTests {
    static let model = "mobilenet_v1_0.25_224_quant.tflite"

    @Test func asyncClassificationMatchesBlocking() async throws {
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let blocking = try fullClassifier(Self.model)
        let expected = try blocking.classify(image: image).classificationResult.classifications
        let asynchronous = try fullClassifier(Self.model)
        let result = try await asynchronous.classification(of: image)
        #expect(result.classificationResult.classifications == expected)
        let video = try fullClassifier(Self.model) { $0.runningMode = .video }
        let frame = try await video.classification(ofVideoFrame: image, timestampInMilliseconds: 40)
        #expect(frame.timestampInMilliseconds == 40)
        #expect(frame.classificationResult.classifications == expected)
        await #expect(throws: TasksError.self) {
            try await video.classification(ofVideoFrame: image, timestampInMilliseconds: 40)
        }
    }

    /// burger.jpg stored turned a quarter clockwise (as a camera in portrait would), tagged `.right`.
    @Test func orientedFramesInVideoAndLiveStream() async throws {
        let upright = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let stored = OrientedPixels(upright: upright.pixels, orientation: .right)
        let frame = try MPImage(
            pixels: stored.bytes, width: stored.width, height: stored.height, format: .rgb8, orientation: .right)
        let video = try fullClassifier(Self.model) { $0.runningMode = .video }
        let top = try video.classify(videoFrame: frame, timestampInMilliseconds: 0).classificationResult.classifications[0]
            .categories[0]
        #expect(top.index == 934)

        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(Self.model).path
        let (live, results) = try ImageClassifier.liveStream(options: options, bufferingPolicy: .unbounded)
        try live.classifyAsync(image: frame, timestampInMilliseconds: 0)
        live.close()
        var iterator = results.makeAsyncIterator()
        let first = await iterator.next()
        #expect((try? first?.result.get())?.classificationResult.classifications[0].categories.first?.index == 934)
    }
}
