import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Records delegate callbacks; with a `gate`, each callback first waits at it, so that a test
/// can hold the delegate busy for as long as it needs.
final class RecordingDelegate: ImageClassifierLiveStreamDelegate, Sendable {
    let calls = Locked<[(timestamp: Int, top: Int?, error: TasksError?)]>([])
    let gate: Gate?

    init(gate: Gate? = nil) { self.gate = gate }

    func imageClassifier(
        _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int, error: (any Error)?
    ) {
        gate?.pass()
        let top = result?.classificationResult.classifications.first?.categories.first?.index
        calls.withLock { $0.append((timestampInMilliseconds, top, error as? TasksError)) }
    }

    var timestamps: [Int] { calls.withLock { $0.map(\.timestamp) } }
}

/// Where a callback waits until the test opens it (once open, it stays open). `entered` is
/// signalled each time a callback arrives at it.
final class Gate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)

    func pass() {
        entered.signal()
        opened.wait()
        opened.signal()  // open for the next one
    }

    func open() { opened.signal() }
}

/// MediaPipe's live-stream flow control, delivery order, closing, and concurrency.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LiveStreamTests {
    static let model = "mobilenet_v1_0.25_224_quant.tflite"

    func liveClassifier(_ delegate: RecordingDelegate) throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(Self.model).path
        options.runningMode = .liveStream
        options.imageClassifierLiveStreamDelegate = delegate
        return try ImageClassifier(options: options)
    }

    /// With classification held, frames 2 and 3 are replaced by frame 4: only 1 and 4 get
    /// callbacks, and the counters say so.
    @Test func aNewerFrameReplacesTheWaitingOne() throws {
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let delivered = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let runner = LiveStreamRunner<ImageClassifierResult>(
            task: "image classifier",
            process: { frame in
                started.signal()
                gate.wait()
                return .failure(TasksError.internal("held frame \(frame.timestamp)"))
            },
            deliver: { outcome in
                delivered.withLock { $0.append(outcome.timestampInMilliseconds) }
                done.signal()
            },
            finished: {})
        func frame(_ timestamp: Int) -> LiveStreamRunner<ImageClassifierResult>.Frame {
            .init(image: image, regionOfInterest: .zero, timestamp: timestamp, received: .now)
        }
        try runner.submit(frame(1))
        started.wait()
        for timestamp in 2...4 { try runner.submit(frame(timestamp)) }
        #expect(runner.statistics == LiveStreamStatistics(framesReceived: 4, framesProcessed: 0, framesDropped: 2))
        gate.signal()
        started.wait()
        gate.signal()
        done.wait()
        done.wait()
        runner.close()
        #expect(delivered.withLock { $0 } == [1, 4])
        let statistics = runner.statistics
        #expect((statistics.framesReceived, statistics.framesProcessed, statistics.framesDropped) == (4, 2, 2))
    }

    /// Real frames as fast as they come: callbacks arrive in timestamp order, one per processed
    /// frame, every received frame is processed or dropped, and none arrives after close.
    @Test func resultsArriveInOrderAndNothingAfterClose() throws {
        let delegate = RecordingDelegate()
        let classifier = try liveClassifier(delegate)
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        for timestamp in 0..<200 { try classifier.classifyAsync(image: image, timestampInMilliseconds: timestamp) }
        classifier.close()
        let afterClose = delegate.timestamps
        // Closing again waits for the work and delivery queues once more: a callback still
        // queued after the first close would have arrived by the time it returns.
        classifier.close()
        #expect(delegate.timestamps == afterClose, "nothing arrives after close")
        let statistics = classifier.liveStreamStatistics
        #expect(statistics.framesReceived == 200)
        #expect(statistics.framesProcessed + statistics.framesDropped == 200)
        #expect(afterClose.count == statistics.framesProcessed)
        #expect(afterClose == afterClose.sorted())
        #expect(afterClose.first == 0, "the first frame is never dropped")
        #expect(delegate.calls.withLock { $0.allSatisfy { $0.top == 934 && $0.error == nil } })
        #expect(statistics.lastLatencyInMilliseconds.map { $0 > 0 } == true)
        let error = #expect(throws: TasksError.self) { try classifier.classifyAsync(image: image, timestampInMilliseconds: 1000) }
        #expect(error?.code == .failedPreconditionError)
    }

    @Test func outOfOrderTimestampIsRejected() throws {
        let delegate = RecordingDelegate()
        let classifier = try liveClassifier(delegate)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        try classifier.classifyAsync(image: image, timestampInMilliseconds: 1)
        let error = #expect(throws: TasksError.self) { try classifier.classifyAsync(image: image, timestampInMilliseconds: 0) }
        #expect(error?.description == "INVALID_ARGUMENT: Input timestamp must be monotonically increasing.")
        classifier.close()
    }

    /// A delegate held busy in its first callback neither blocks `classifyAsync` nor deadlocks
    /// close.
    @Test func slowDelegateDoesNotStallClassifyAsync() async throws {
        let gate = Gate()
        let delegate = RecordingDelegate(gate: gate)
        let classifier = try liveClassifier(delegate)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        try classifier.classifyAsync(image: image, timestampInMilliseconds: 0)
        #expect(await Waiting.wait(for: gate.entered, safetyNet: 120), "the first callback arrived")
        // Nine more frames while the delegate is held, sent from a thread of their own, so that a
        // classifyAsync waiting for the delegate fails the test instead of hanging it.
        let sent = DispatchSemaphore(value: 0)
        let errors = Locked<[String]>([])
        Thread {
            for timestamp in 1..<10 {
                do {
                    try classifier.classifyAsync(image: image, timestampInMilliseconds: timestamp)
                } catch {
                    errors.withLock { $0.append("\(timestamp): \(error)") }
                }
            }
            sent.signal()
        }.start()
        let returned = await Waiting.wait(for: sent, safetyNet: 120)
        #expect(returned, "classifyAsync waited for the delegate")
        #expect(errors.withLock { $0 }.isEmpty, "\(errors.withLock { $0 })")
        #expect(delegate.timestamps.count < 10, "callbacks are still being delivered")
        gate.open()
        classifier.close()  // waits for the queued callbacks
        #expect(delegate.timestamps.count == classifier.liveStreamStatistics.framesProcessed)
    }

    /// 8 producer threads, 4000 frames: no crash, no lost accounting, ordered callbacks.
    @Test func eightProducerThreads() throws {
        let delegate = RecordingDelegate()
        let classifier = try liveClassifier(delegate)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let clock = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 {
                // The timestamp is taken and sent under one lock, so sends stay in timestamp order.
                clock.withLock { next in
                    try? classifier.classifyAsync(image: image, timestampInMilliseconds: next)
                    next += 1
                }
            }
        }
        classifier.close()
        let statistics = classifier.liveStreamStatistics
        #expect(statistics.framesReceived == 4000)
        #expect(statistics.framesProcessed + statistics.framesDropped == 4000)
        #expect(delegate.timestamps.count == statistics.framesProcessed)
        #expect(delegate.timestamps == delegate.timestamps.sorted())
    }

    /// The Swift-native stream: the same results, finished by close.
    @Test func asyncStreamDeliversResults() async throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(Self.model).path
        let (classifier, results) = try ImageClassifier.liveStream(options: options)
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        // Each frame is sent once the previous result has arrived, so none waits or is dropped.
        var iterator = results.makeAsyncIterator()
        var seen: [Int] = []
        for timestamp in [10, 20, 30] {
            try classifier.classifyAsync(image: image, timestampInMilliseconds: timestamp)
            guard let outcome = await iterator.next() else { break }
            seen.append(outcome.timestampInMilliseconds)
            #expect((try? outcome.result.get())?.classificationResult.classifications[0].categories.first?.index == 934)
        }
        classifier.close()
        while let outcome = await iterator.next() { seen.append(outcome.timestampInMilliseconds) }  // finished by close
        #expect(seen == [10, 20, 30])
    }

    /// A region of interest MediaPipe's graph rejects is an error callback, as in MediaPipe.
    @Test func badRegionIsReportedToTheDelegate() throws {
        let delegate = RecordingDelegate()
        let classifier = try liveClassifier(delegate)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        try classifier.classifyAsync(
            image: image, timestampInMilliseconds: 5,
            regionOfInterest: CGRect(x: 0.5, y: 0.5, width: 0.9, height: 0.2))
        classifier.close()
        let calls = delegate.calls.withLock { $0 }
        #expect(calls.count == 1)
        #expect(calls.first?.timestamp == 5)
        #expect(calls.first?.error?.message.hasPrefix("Expected RectF values to be in [0,1].") == true)
    }

    @Test func theDelegateIsHeldWeakly() throws {
        var delegate: RecordingDelegate? = RecordingDelegate()
        weak let watcher = delegate
        let classifier = try liveClassifier(delegate!)
        delegate = nil
        #expect(watcher == nil)
        try classifier.classifyAsync(image: try MPImage(contentsOf: TestData.image("burger-224.png")), timestampInMilliseconds: 0)
        classifier.close()
        #expect(classifier.liveStreamStatistics.framesProcessed == 1)
    }
}

/// Threads that take timestamps from a shared counter but send them without holding its lock:
/// a frame whose timestamp is older than one already sent is refused, and results still
/// arrive in timestamp order.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LiveStreamOrderTests {
    @Test func racingSendersKeepResultsInOrder() throws {
        let delegate = RecordingDelegate()
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(LiveStreamTests.model).path
        options.runningMode = .liveStream
        options.imageClassifierLiveStreamDelegate = delegate
        let classifier = try ImageClassifier(options: options)
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let counter = Locked(0)
        let refused = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let timestamp = counter.withLock { value -> Int in
                    value += 1
                    return value
                }
                do {
                    try classifier.classifyAsync(image: image, timestampInMilliseconds: timestamp)
                } catch {
                    refused.withLock { $0 += 1 }
                }
            }
        }
        classifier.close()
        let statistics = classifier.liveStreamStatistics
        #expect(statistics.framesReceived + refused.withLock { $0 } == 1600)
        #expect(statistics.framesProcessed + statistics.framesDropped == statistics.framesReceived)
        #expect(delegate.timestamps == delegate.timestamps.sorted())
        #expect(delegate.timestamps.count == statistics.framesProcessed)
    }
}
