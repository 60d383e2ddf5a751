import Dispatch
import Foundation
import Synchronization
import TaskRuntime
import TasksCommon

/// MediaPipe's live-stream flow control (a FlowLimiter with one frame in flight and one
/// waiting; a newer frame replaces the waiting one, which is then dropped without a callback)
/// and in-order delivery on a private serial queue, for any vision task: `Output` is the
/// task's result (`ImageClassifierResult`, `ImageEmbedderResult`).
final class LiveStreamRunner<Output: Sendable>: Sendable {
    /// A frame waiting for, or in, processing.
    struct Frame: Sendable {
        let image: MPImage
        let regionOfInterest: CGRect
        let timestamp: Int
        let received: ContinuousClock.Instant
    }

    /// What a frame gave: its result or its error.
    struct Outcome: Sendable {
        /// The frame's timestamp in milliseconds.
        let timestampInMilliseconds: Int
        let result: Result<Output, TasksError>

        /// The result, or nil for an error (as the delegates take it).
        var value: Output? { try? result.get() }
        /// The error, or nil for a result.
        var error: TasksError? {
            guard case .failure(let error) = result else { return nil }
            return error
        }
    }

    private struct Flow {
        var inFlight = false
        var waiting: Frame?
        /// No new frame is accepted.
        var closed = false
        /// The timestamps accepted; each frame's must be greater than the last.
        var timestamps = TimestampSequence()
        /// No result is delivered any more (set once `close()` has drained the deliveries).
        var silenced = false
        var statistics = LiveStreamStatistics()
    }

    private let flow = Mutex(Flow())
    private let work: DispatchQueue
    private let delivery: DispatchQueue
    /// The task as the closed error names it ("image classifier").
    private let task: String
    private let process: @Sendable (Frame) -> Result<Output, TasksError>
    private let deliver: @Sendable (Outcome) -> Void
    private let finished: @Sendable () -> Void

    /// - Parameters:
    ///   - task: the task's name in messages and queue labels, such as "image classifier".
    ///   - process: processes one frame (on the work queue).
    ///   - deliver: hands an outcome to the delegate and stream (on the delivery queue).
    ///   - finished: called once when the runner is closed, after the last delivery.
    init(
        task: String,
        process: @escaping @Sendable (Frame) -> Result<Output, TasksError>,
        deliver: @escaping @Sendable (Outcome) -> Void,
        finished: @escaping @Sendable () -> Void
    ) {
        self.task = task
        let label = task.split(separator: " ").map(\.capitalized).joined()  // "ImageClassifier"
        work = DispatchQueue(label: "\(label).liveStream.work")
        delivery = DispatchQueue(label: "\(label).liveStream.delivery")
        self.process = process
        self.deliver = deliver
        self.finished = finished
        delivery.setSpecific(key: deliveryQueueKey, value: ObjectIdentifier(self))
    }

    /// Accepts a frame: starts it, or makes it the waiting frame (dropping the one it replaces).
    /// - Throws: `TasksError` failedPrecondition after `close()`; invalidArgument (MediaPipe's
    ///   message) for a timestamp not greater than the last accepted one.
    func submit(_ frame: Frame) throws(TasksError) {
        let start = try flow.withLock { flow throws(TasksError) -> Bool in
            guard !flow.closed else { throw .failedPrecondition("The \(task) is closed.") }
            try flow.timestamps.accept(frame.timestamp)
            flow.statistics.framesReceived += 1
            guard flow.inFlight else {
                flow.inFlight = true
                return true
            }
            if flow.waiting != nil { flow.statistics.framesDropped += 1 }
            flow.waiting = frame
            return false
        }
        if start { work.async { self.run(frame) } }
    }

    private func run(_ frame: Frame) {
        let result = process(frame)
        let latency = ContinuousClock.now - frame.received
        let next = flow.withLock { flow -> Frame? in
            flow.statistics.framesProcessed += 1
            flow.statistics.lastLatencyInMilliseconds = latency / .milliseconds(1)
            let next = flow.closed ? nil : flow.waiting
            flow.waiting = nil
            flow.inFlight = next != nil
            return next
        }
        let outcome = Outcome(timestampInMilliseconds: frame.timestamp, result: result)
        delivery.async {
            guard !self.flow.withLock({ $0.silenced }) else { return }
            self.deliver(outcome)
        }
        if let next { work.async { self.run(next) } }
    }

    /// The counters so far.
    var statistics: LiveStreamStatistics { flow.withLock { $0.statistics } }

    /// Stops: refuses new frames, drops the waiting one, waits for the frame in flight and the
    /// delivery of the results already made, and makes sure no result is delivered after it
    /// returns (called from the delegate itself, it cannot wait for the callbacks queued after
    /// that one, and drops them).
    func close() {
        let wasClosed = flow.withLock { flow in
            defer { flow.closed = true }
            if flow.waiting != nil { flow.statistics.framesDropped += 1 }
            flow.waiting = nil
            return flow.closed
        }
        // A frame taken from `waiting` just before closing is scheduled after the first sync.
        repeat { work.sync {} } while flow.withLock { $0.inFlight }
        if DispatchQueue.getSpecific(key: deliveryQueueKey) != ObjectIdentifier(self) { delivery.sync {} }
        flow.withLock { $0.silenced = true }
        if !wasClosed { finished() }
    }
}

/// Marks the delivery queue of each runner (static stored properties cannot be generic).
private let deliveryQueueKey = DispatchSpecificKey<ObjectIdentifier>()
