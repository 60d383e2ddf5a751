import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// A task that processes video frames in MediaPipe's video running mode: what
/// `VideoFrameRunner.run(_:stopRequested:each:)` needs of it. A task gets video files, the
/// server's video route and every sampling and timestamp policy by this conformance alone.
///
/// The requirement mirrors the task's MediaPipe call for video mode, such as
/// `ImageClassifier.classify(videoFrame:timestampInMilliseconds:regionOfInterest:)`.
package protocol VideoTask: Sendable {
    /// What one frame gives (an `ImageClassifierResult`, an `ImageEmbedderResult`).
    associatedtype FrameResult: Sendable

    /// Processes one decoded frame; the task must be in `RunningMode.video`. Blocks until done.
    /// - Parameters:
    ///   - videoFrame: the frame, with the orientation to apply.
    ///   - timestampInMilliseconds: the frame's time in milliseconds, strictly greater than the
    ///     previous frame's (the runner's `FrameTimestamps` makes them so).
    ///   - regionOfInterest: normalized [0, 1], top-left origin, stored-pixel coordinates;
    ///     `CGRect.zero` for the whole frame.
    /// - Throws: the task's error (invalidArgument when not in video mode, for a timestamp not
    ///   above the last, or for a bad region).
    func result(
        forVideoFrame videoFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect
    ) throws -> FrameResult
}

/// A task that takes frames in MediaPipe's live-stream running mode: what
/// `VideoFrameRunner.feed(_:stopRequested:)` needs of it. Results arrive through the task's own
/// delegate or stream, not through the runner.
///
/// The requirement mirrors the task's MediaPipe call for live-stream mode, such as
/// `ImageClassifier.classifyAsync(image:timestampInMilliseconds:regionOfInterest:)`.
package protocol LiveStreamTask: Sendable {
    /// Sends one frame and returns at once; the task must be in `RunningMode.liveStream`. A frame
    /// arriving while the model is busy replaces the waiting one (MediaPipe's flow limiter).
    /// - Parameters:
    ///   - liveStreamFrame: the frame, with the orientation to apply.
    ///   - timestampInMilliseconds: strictly greater than the previous frame's, in milliseconds.
    ///   - regionOfInterest: normalized [0, 1], top-left origin; `CGRect.zero` for the whole frame.
    /// - Throws: the task's error (invalidArgument when not in live-stream mode, for a timestamp
    ///   not above the last, or for a bad region; failedPrecondition once closed).
    func send(liveStreamFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect) throws
}
