import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Records embedder delegate callbacks.
final class RecordingEmbedderDelegate: ImageEmbedderLiveStreamDelegate, Sendable {
    let calls = Locked<[(timestamp: Int, embeddings: [Embedding]?, error: TasksError?)]>([])

    func imageEmbedder(
        _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        calls.withLock { $0.append((timestampInMilliseconds, result?.embeddingResult.embeddings, error as? TasksError)) }
    }

    var timestamps: [Int] { calls.withLock { $0.map(\.timestamp) } }
}

/// The embedder's live stream (the classifier's runner): results in timestamp order, the same
/// embeddings as image mode, nothing after `close()`, the `AsyncStream` form.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct EmbedderLiveStreamTests {
    static let model = "mobilenet_v2_035_96_embedder_with_metadata.tflite"

    @Test func resultsArriveInOrderAndNothingAfterClose() throws {
        let delegate = RecordingEmbedderDelegate()
        let embedder = try embedder(Self.model, l2Normalize: true) { options in
            options.runningMode = .liveStream
            options.imageEmbedderLiveStreamDelegate = delegate
        }
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let expected = try VisionTasksTests.embedder(Self.model, l2Normalize: true).embed(image: image).embeddingResult
            .embeddings
        for timestamp in 0..<100 { try embedder.embedAsync(image: image, timestampInMilliseconds: timestamp) }
        embedder.close()
        let afterClose = delegate.timestamps
        embedder.close()  // waits for the queues once more: a late callback would have arrived
        #expect(delegate.timestamps == afterClose, "nothing arrives after close")
        let statistics = embedder.liveStreamStatistics
        #expect(statistics.framesReceived == 100)
        #expect(statistics.framesProcessed + statistics.framesDropped == 100)
        #expect(afterClose.count == statistics.framesProcessed)
        #expect(afterClose == afterClose.sorted())
        #expect(afterClose.first == 0, "the first frame is never dropped")
        #expect(delegate.calls.withLock { $0.allSatisfy { $0.embeddings == expected && $0.error == nil } })
        let error = expectTasksError(.failedPreconditionError, message: "The image embedder is closed.") {
            try embedder.embedAsync(image: image, timestampInMilliseconds: 1000)
        }
        #expect(error != nil)
    }

    @Test func outOfOrderTimestampIsRejected() throws {
        let delegate = RecordingEmbedderDelegate()
        let embedder = try embedder(Self.model) { options in
            options.runningMode = .liveStream
            options.imageEmbedderLiveStreamDelegate = delegate
        }
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        try embedder.embedAsync(image: image, timestampInMilliseconds: 1)
        expectTasksError(.invalidArgumentError, message: "Input timestamp must be monotonically increasing.") {
            try embedder.embedAsync(image: image, timestampInMilliseconds: 1)
        }
        embedder.close()
    }

    /// A region MediaPipe's graph rejects is an error callback with the frame's timestamp.
    @Test func badRegionIsReportedToTheDelegate() throws {
        let delegate = RecordingEmbedderDelegate()
        let embedder = try embedder(Self.model) { options in
            options.runningMode = .liveStream
            options.imageEmbedderLiveStreamDelegate = delegate
        }
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        try embedder.embedAsync(
            image: image, timestampInMilliseconds: 5, regionOfInterest: CGRect(x: 0.5, y: 0.5, width: 0.9, height: 0.2))
        embedder.close()
        let calls = delegate.calls.withLock { $0 }
        #expect(calls.count == 1)
        #expect(calls.first?.timestamp == 5)
        #expect(calls.first?.embeddings == nil)
        #expect(calls.first?.error?.message.hasPrefix("Expected RectF values to be in [0,1].") == true)
    }

    /// The Swift-native stream: each frame's result, in order, finished by close; the caller's
    /// options keep their running mode.
    @Test func asyncStreamDeliversResults() async throws {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = TestData.model(Self.model).path
        options.quantize = true
        let (embedder, results) = try ImageEmbedder.liveStream(options: options)
        #expect(options.runningMode == .image)
        #expect(embedder.runningMode == .liveStream)
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let expected = try VisionTasksTests.embedder(Self.model, quantize: true).embed(image: image).embeddingResult
            .embeddings
        // Each frame is sent once the previous result has arrived, so none waits or is dropped.
        var iterator = results.makeAsyncIterator()
        var seen: [Int] = []
        for timestamp in [10, 20, 30] {
            try embedder.embedAsync(image: image, timestampInMilliseconds: timestamp)
            guard let outcome = await iterator.next() else { break }
            seen.append(outcome.timestampInMilliseconds)
            let result = try outcome.result.get()
            #expect(result.timestampInMilliseconds == timestamp)
            #expect(result.embeddingResult.embeddings == expected)
        }
        embedder.close()
        while let outcome = await iterator.next() { seen.append(outcome.timestampInMilliseconds) }  // finished by close
        #expect(seen == [10, 20, 30])
    }

    @Test func theDelegateIsHeldWeakly() throws {
        var delegate: RecordingEmbedderDelegate? = RecordingEmbedderDelegate()
        weak let watcher = delegate
        let embedder = try embedder(Self.model) { options in
            options.runningMode = .liveStream
            options.imageEmbedderLiveStreamDelegate = delegate
        }
        delegate = nil
        #expect(watcher == nil)
        try embedder.embedAsync(image: try MPImage(contentsOf: TestData.image("burger-224.png")), timestampInMilliseconds: 0)
        embedder.close()
        #expect(embedder.liveStreamStatistics.framesProcessed == 1)
    }
}
