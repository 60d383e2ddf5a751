import Dispatch
import Foundation
import Imaging
import Synchronization
import TaskRuntime
import TasksCommon

/// What every vision task shares, as MediaPipe's vision task runner gives it
/// (`tasks/cc/vision/core`, iOS `MPPVisionTaskRunner`): the running mode and the methods it
/// allows, the engine behind one lock with the synthetic image-mode timestamps and the video
/// timestamps, the live-stream runner, and the async offload. A task adds its engine, the step
/// that turns an image into its result, and its delegate.
///
/// `Engine` is the task's pipeline (`ClassifierEngine`, `EmbedderEngine`): not `Sendable`, so it
/// lives behind the lock from creation on; `Output` is the task's result.
final class VisionTaskRunner<Engine, Output: Sendable>: Sendable {
    /// Runs the engine on one image and makes the task's result carrying `timestamp` (ms).
    typealias Process = @Sendable (Engine, MPImage, RegionOfInterest, _ timestamp: Int) throws(TasksError) -> Output

    /// The running mode the task was created with.
    let runningMode: RunningMode
    private let core: Core
    private let liveStream: LiveStreamRunner<Output>?

    /// - Parameters:
    ///   - runningMode: the task's running mode.
    ///   - engine: the task's engine; the runner owns it from now on.
    ///   - task: the task's name in messages, such as "image classifier".
    ///   - process: runs the engine on one image (under the lock).
    ///   - deliver: in live-stream mode, hands each outcome to the delegate and stream, in
    ///     timestamp order on a private serial queue; unused in the other modes.
    ///   - finished: in live-stream mode, called once when the runner is closed.
    init(
        runningMode: RunningMode, engine: sending Engine, task: String, process: @escaping Process,
        deliver: @escaping @Sendable (LiveStreamRunner<Output>.Outcome) -> Void = { _ in },
        finished: @escaping @Sendable () -> Void = {}
    ) {
        self.runningMode = runningMode
        let core = Core(engine: engine, process: process)
        self.core = core
        guard runningMode == .liveStream else {
            liveStream = nil
            return
        }
        liveStream = LiveStreamRunner(
            task: task,
            process: { frame in
                Result { () throws(TasksError) in
                    // MediaPipe's graph checks the region, so a bad one is reported to the delegate.
                    let region = try RegionOfInterest(iOSRect: frame.regionOfInterest)
                    return try core.process(frame.image, region, timestamp: frame.timestamp)
                }
            },
            deliver: deliver, finished: finished)
    }

    deinit { liveStream?.close() }

    /// Processes an image in image mode, with the next synthetic timestamp (0, 1000, 2000 ms...).
    /// - Throws: `TasksError` invalidArgument when not in image mode or for a bad region; what
    ///   the engine throws.
    func processImage(_ image: MPImage, regionOfInterest: CGRect) throws(TasksError) -> Output {
        try require(.image)
        return try core.processImage(image, try RegionOfInterest(iOSRect: regionOfInterest))
    }

    /// Processes a video frame after checking that its timestamp (ms) increases.
    /// - Throws: `TasksError` invalidArgument when not in video mode, for a bad region, or for a
    ///   timestamp not greater than the last; what the engine throws.
    func processVideoFrame(_ image: MPImage, regionOfInterest: CGRect, timestamp: Int) throws(TasksError) -> Output {
        try require(.video)
        return try core.processVideoFrame(image, try RegionOfInterest(iOSRect: regionOfInterest), timestamp: timestamp)
    }

    /// Queues a live-stream frame (see `LiveStreamRunner.submit(_:)`); a bad region is reported
    /// to the delegate.
    /// - Throws: `TasksError` invalidArgument when not in live-stream mode or for a timestamp not
    ///   greater than the last; failedPrecondition after `close()`.
    func processLiveStreamFrame(_ image: MPImage, regionOfInterest: CGRect, timestamp: Int) throws(TasksError) {
        try require(.liveStream)
        guard let liveStream else { throw .internal("live stream runner missing") }
        // The runner checks the timestamp under the same lock that queues the frame, so that
        // frames sent from several threads are queued in timestamp order.
        try liveStream.submit(.init(image: image, regionOfInterest: regionOfInterest, timestamp: timestamp, received: .now))
    }

    /// The live-stream counters; all zero outside live-stream mode.
    var liveStreamStatistics: LiveStreamStatistics { liveStream?.statistics ?? LiveStreamStatistics() }

    /// Stops the live stream (see `LiveStreamRunner.close()`); no effect in other modes.
    func close() { liveStream?.close() }

    /// Runs blocking work on a global Dispatch queue and resumes the caller with its outcome, so
    /// that the `async` forms do not block a cooperative thread.
    func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// MediaPipe iOS's check that a method fits the running mode, made in its Objective-C
    /// layer (no status name in the description).
    private func require(_ mode: RunningMode) throws(TasksError) {
        guard runningMode == mode else {
            let name =
                switch mode {
                case .image: "image"
                case .video: "video"
                case .liveStream: "live stream"
                }
            throw TasksError(
                .invalidArgumentError,
                "The vision task is not initialized with \(name) mode. Current Running Mode: \(runningMode)",
                subject: .option("runningMode"), layer: .platformAPI)
        }
    }

    /// The engine and the timestamps, shared with the live-stream worker; one lock for both.
    private final class Core: Sendable {
        struct State: ~Copyable {
            let engine: Engine
            /// The next synthetic timestamp in image mode (MediaPipe: 0, 1000, 2000 ms, ...).
            var nextImageTimestamp = 0
            /// The timestamps of video-mode frames.
            var videoTimestamps = TimestampSequence()
        }

        private let state: Mutex<State>
        private let process: Process

        init(engine: sending Engine, process: @escaping Process) {
            state = Mutex(State(engine: engine))
            self.process = process
        }

        func processImage(_ image: MPImage, _ region: RegionOfInterest) throws(TasksError) -> Output {
            try state.withLock { state throws(TasksError) in
                let result = try process(state.engine, image, region, state.nextImageTimestamp)
                state.nextImageTimestamp += 1000
                return result
            }
        }

        func processVideoFrame(_ image: MPImage, _ region: RegionOfInterest, timestamp: Int) throws(TasksError) -> Output {
            try state.withLock { state throws(TasksError) in
                try state.videoTimestamps.accept(timestamp)
                return try process(state.engine, image, region, timestamp)
            }
        }

        /// Processes a live-stream frame (its timestamp was checked when it was queued).
        func process(_ image: MPImage, _ region: RegionOfInterest, timestamp: Int) throws(TasksError) -> Output {
            try state.withLock { state throws(TasksError) in try process(state.engine, image, region, timestamp) }
        }
    }
}
