import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// The embedder's running modes: MediaPipe's rules tying methods, delegates and timestamps to
/// them (shared with the classifier), video timestamps, and the `async` forms.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct EmbedderRunningModeTests {
    static let model = "mobilenet_v2_035_96_embedder_with_metadata.tflite"

    final class Receiver: ImageEmbedderLiveStreamDelegate {
        func imageEmbedder(
            _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?,
            timestampInMilliseconds: Int, error: (any Error)?
        ) {}
    }

    func embedder(_ mode: RunningMode, delegate: Receiver? = nil) throws -> ImageEmbedder {
        try VisionTasksTests.embedder(Self.model) { options in
            options.runningMode = mode
            options.imageEmbedderLiveStreamDelegate = delegate
        }
    }

    @Test func imageModeTimestampsAreSynthetic() throws {
        let embedder = try embedder(.image)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let results = try (0..<3).map { _ in try embedder.embed(image: image) }
        #expect(results.map(\.timestampInMilliseconds) == [0, 1000, 2000])
        #expect(results.map(\.embeddingResult.timestampInMilliseconds) == [0, 1000, 2000])
        #expect(results.allSatisfy { $0.embeddingResult.embeddings == results[0].embeddingResult.embeddings })
    }

    @Test func videoFramesCarryTheirTimestamps() throws {
        let video = try embedder(.video)
        let burger = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let expected = try embedder(.image).embed(image: burger).embeddingResult.embeddings
        for timestamp in [0, 33, 67, 1000] {
            let result = try video.embed(videoFrame: burger, timestampInMilliseconds: timestamp)
            #expect(result.timestampInMilliseconds == timestamp)
            #expect(result.embeddingResult.timestampInMilliseconds == timestamp)
            #expect(result.embeddingResult.embeddings == expected)
        }
        let region = CGRect(x: 0.1, y: 0.2, width: 0.5, height: 0.6)
        let cropped = try video.embed(videoFrame: burger, timestampInMilliseconds: 2000, regionOfInterest: region)
        #expect(
            cropped.embeddingResult.embeddings
                == (try embedder(.image).embed(image: burger, regionOfInterest: region)).embeddingResult.embeddings)
    }

    @Test(arguments: [[5, 5], [5, 4], [10, 20, 15]])
    func videoTimestampsMustIncrease(timestamps: [Int]) throws {
        let embedder = try embedder(.video)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        for timestamp in timestamps.dropLast() {
            _ = try embedder.embed(videoFrame: image, timestampInMilliseconds: timestamp)
        }
        let error = #expect(throws: TasksError.self) {
            try embedder.embed(videoFrame: image, timestampInMilliseconds: timestamps.last!)
        }
        #expect(error?.description == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
    }

    @Test func methodsOfAnotherModeAreRejected() throws {
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let receiver = Receiver()
        let imageMode = try embedder(.image)
        let videoMode = try embedder(.video)
        let liveMode = try embedder(.liveStream, delegate: receiver)
        let expectations: [(() throws -> Void, String)] = [
            (
                { _ = try imageMode.embed(videoFrame: image, timestampInMilliseconds: 0) },
                "The vision task is not initialized with video mode. Current Running Mode: Image"
            ),
            (
                { try imageMode.embedAsync(image: image, timestampInMilliseconds: 0) },
                "The vision task is not initialized with live stream mode. Current Running Mode: Image"
            ),
            (
                { _ = try videoMode.embed(image: image) },
                "The vision task is not initialized with image mode. Current Running Mode: Video"
            ),
            (
                { try videoMode.embedAsync(image: image, timestampInMilliseconds: 0) },
                "The vision task is not initialized with live stream mode. Current Running Mode: Video"
            ),
            (
                { _ = try liveMode.embed(image: image, regionOfInterest: .zero) },
                "The vision task is not initialized with image mode. Current Running Mode: Live Stream"
            ),
            (
                { _ = try liveMode.embed(videoFrame: image, timestampInMilliseconds: 0) },
                "The vision task is not initialized with video mode. Current Running Mode: Live Stream"
            ),
        ]
        for (call, message) in expectations {
            let error = expectTasksError(.invalidArgumentError, message: message) { try call() }
            #expect(error?.subject == .option("runningMode"))
        }
        withExtendedLifetime(receiver) {}
    }

    @Test(arguments: [RunningMode.image, .video])
    func delegateOutsideLiveStreamIsRejected(mode: RunningMode) throws {
        let receiver = Receiver()
        let error = expectTasksError(
            .invalidArgumentError,
            message: "The vision task is in image or video mode. The delegate must not be set in the task's options."
        ) { try embedder(mode, delegate: receiver) }
        #expect(error?.subject == .option("imageEmbedderLiveStreamDelegate"))
    }

    @Test func liveStreamWithoutDelegateIsRejected() throws {
        let error = expectTasksError(
            .invalidArgumentError,
            message:
                "The vision task is in live stream mode. An object must be set as the delegate of the task in its options to ensure asynchronous delivery of results."
        ) { try embedder(.liveStream) }
        #expect(error?.subject == .option("imageEmbedderLiveStreamDelegate"))
    }

    @Test func asyncEmbeddingMatchesBlocking() async throws {
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let expected = try embedder(.image).embed(image: image).embeddingResult.embeddings
        let result = try await embedder(.image).embedding(of: image)
        #expect(result.embeddingResult.embeddings == expected)
        let video = try embedder(.video)
        let frame = try await video.embedding(ofVideoFrame: image, timestampInMilliseconds: 40)
        #expect(frame.timestampInMilliseconds == 40)
        #expect(frame.embeddingResult.embeddings == expected)
        await #expect(throws: TasksError.self) {
            try await video.embedding(ofVideoFrame: image, timestampInMilliseconds: 40)
        }
    }
}
