import Foundation
import ImageTasks
import TasksCommon
import VideoInput
import VisionTasks

/// Runs a task over a video's frames: the one frame loop of `classify-video`, `live` and the
/// server's video route, as MediaPipe's `vision/core` gives every vision task the same video and
/// live-stream runner.
///
/// Each decoded frame goes through the run's `FrameTimestamps` policy (frames whose timestamp
/// does not increase are left out or moved up), then its `FrameSampling`; a frame taken gets the
/// run's orientation and is processed with its region of interest. The runner counts what it
/// went past (`VideoRunFacts`); front ends print results and warnings from what it reports.
///
/// Not `Sendable`: use one runner on one thread, for one pass over its source.
package final class VideoFrameRunner {
    /// The source's URL, frame rate and duration, known once open.
    package let source: VideoSourceFacts
    package let configuration: VideoRunConfiguration
    private let feed: Feed
    private var timestamps: FrameTimestamps
    private var sampler: FrameSampling.Sampler
    private var facts: VideoRunFacts

    /// Opens `url` (on a reading thread of its own when `configuration.readAhead` > 0, waiting
    /// until it is open).
    /// - Parameters:
    ///   - url: what `VideoSource(url:options:)` opens: a file, an FFmpeg URL, a camera, a pipe.
    ///   - options: the source's options (timeout, input format, decoder threads).
    /// - Throws: `TasksError` as `VideoSource.init(url:options:)`.
    package init(
        url: String, options: VideoSourceOptions = VideoSourceOptions(), configuration: VideoRunConfiguration
    ) throws(TasksError) {
        (feed, source) = try Feed.open(url: url, options: options, readAhead: configuration.readAhead)
        self.configuration = configuration
        timestamps = FrameTimestamps(configuration.timestamps)
        sampler = FrameSampling.Sampler(configuration.sampling)
        facts = VideoRunFacts(source: source)
    }

    deinit { feed.abandon() }

    /// Processes the sampled frames in MediaPipe's video running mode (`task` must be in
    /// `RunningMode.video`), handing each on as it is done, until the end of the video, a
    /// failure or a requested stop.
    /// - Parameters:
    ///   - task: the task, given strictly increasing timestamps in milliseconds.
    ///   - stopRequested: asked before each frame is read; true ends the run.
    ///   - each: called with every processed frame in order; an error it throws ends the run.
    /// - Returns: the failure that ended the run, if any, and the facts.
    package func run<Task: VideoTask>(
        _ task: Task, stopRequested: () -> Bool = { false },
        each: (VideoFrameOutcome<Task.FrameResult>) throws(TasksError) -> Void
    ) -> VideoRunEnd {
        let region = configuration.processing.regionOfInterest
        return frames(stopRequested: stopRequested) { index, timestamp, image throws(TasksError) in
            let result: Result<Task.FrameResult, TasksError>
            do {
                result = .success(
                    try task.result(forVideoFrame: image, timestampInMilliseconds: timestamp, regionOfInterest: region))
            } catch {
                result = .failure(try failed(.wrapping(error)))
            }
            try each(VideoFrameOutcome(index: index, timestampInMilliseconds: timestamp, image: image, result: result))
        }
    }

    /// Sends the sampled frames to `task` in MediaPipe's live-stream running mode (`task` must be
    /// in `RunningMode.liveStream`; its results arrive through its own delegate or stream) until
    /// the end of the source, a failure or a requested stop.
    /// - Parameters:
    ///   - task: the task, given strictly increasing timestamps in milliseconds.
    ///   - stopRequested: asked before each frame is read; true ends the run. A read cancelled by
    ///     `VideoSource.cancelAllBlockingReads()` once it is true ends the run as requested.
    /// - Returns: the failure that ended the run (a frame the task refused counts as the
    ///   configuration's error policy says), if any, and the facts.
    package func feed<Task: LiveStreamTask>(_ task: Task, stopRequested: () -> Bool = { false }) -> VideoRunEnd {
        let region = configuration.processing.regionOfInterest
        return frames(stopRequested: stopRequested) { _, timestamp, image throws(TasksError) in
            do {
                try task.send(liveStreamFrame: image, timestampInMilliseconds: timestamp, regionOfInterest: region)
            } catch {
                _ = try failed(.wrapping(error))
            }
        }
    }

    /// The loop both modes share: reads, admits, samples and orients each frame, then `process`es
    /// it with its index and timestamp.
    private func frames(
        stopRequested: () -> Bool, process: (Int, Int, MPImage) throws(TasksError) -> Void
    ) -> VideoRunEnd {
        var failure: TasksError?
        do throws(TasksError) {
            while !stopRequested(), let frame = try feed.next() {
                let index = facts.decodedFrameCount
                facts.decodedFrameCount += 1
                guard let timestamp = timestamps.admit(frame.timestampInMilliseconds), sampler.take(timestamp) else {
                    continue
                }
                facts.processedFrameCount += 1
                try process(index, timestamp, configuration.processing.oriented(frame.image))
            }
        } catch  where error.code == .cancelledError && stopRequested() {
            // Ctrl-C while a read waited for data: the stop that was asked for.
        } catch {
            failure = error
        }
        facts.damagedPacketCount = feed.damagedPacketCount
        facts.adjustedTimestampCount = timestamps.adjusted
        facts.lastTimestamp = timestamps.last
        return VideoRunEnd(failure: failure, facts: facts)
    }

    /// Counts a frame the task failed on and applies the error policy: the error to hand on
    /// (`.continue`), or thrown to end the run (`.stop`).
    private func failed(_ error: TasksError) throws(TasksError) -> TasksError {
        facts.failedFrameCount += 1
        guard configuration.errors == .continue else { throw error }
        return error
    }
}
