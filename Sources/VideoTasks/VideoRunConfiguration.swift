import ImageTasks

/// How a `VideoFrameRunner` goes through a video: which frames, with which timestamps, how each
/// frame is prepared, what a frame's error does, and how far decoding reads ahead.
///
/// The front ends are configurations of it: `classify-video` (sampling from `--every` or
/// `--fps`, `.skip`, `.continue`, 3 frames ahead), `live` (all frames, `.bump`, `.stop`, none
/// ahead), the server's video route (`.interval`, `.skip`, `.stop`, none ahead).
package struct VideoRunConfiguration: Sendable {
    /// What a frame the task fails on does to the run.
    package enum FrameErrorPolicy: Sendable, Equatable {
        /// The frame's error ends the run (it is the run's `failure`).
        case stop
        /// The frame is handed on with its error and the run goes on (counted in `failedFrameCount`).
        case `continue`
    }

    /// Which admitted frames are processed.
    package var sampling: FrameSampling
    /// What to do with a frame whose timestamp does not increase (MediaPipe's video and
    /// live-stream modes need strictly increasing timestamps).
    package var timestamps: FrameTimestamps.Policy
    /// The region of interest every frame is processed with, and the orientation that replaces
    /// each frame's own (its display matrix) when set. Decoding settings do not apply to frames.
    package var processing: ImageProcessing
    /// What a frame the task fails on does.
    package var errors: FrameErrorPolicy
    /// Frames decoded ahead of the task on a thread of their own (0: read on the caller's
    /// thread, frame by frame, the newest frame for a live source).
    package var readAhead: Int

    package init(
        sampling: FrameSampling = .all, timestamps: FrameTimestamps.Policy = .skip,
        processing: ImageProcessing = ImageProcessing(), errors: FrameErrorPolicy = .stop, readAhead: Int = 0
    ) {
        self.sampling = sampling
        self.timestamps = timestamps
        self.processing = processing
        self.errors = errors
        self.readAhead = readAhead
    }
}
