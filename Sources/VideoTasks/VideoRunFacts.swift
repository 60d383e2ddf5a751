import ImageTasks

/// What a video run saw: the source's facts and the damage it went past (packets skipped,
/// timestamps that did not increase, frames ending before the container's duration), for a
/// front end to warn about. Final once the run ended.
package struct VideoRunFacts: Sendable, Equatable {
    /// The source's URL, frame rate and duration.
    package let source: VideoSourceFacts
    /// Packets or frames the decoder rejected as damaged and skipped.
    package var damagedPacketCount = 0
    /// Frames the source decoded, admitted or not.
    package var decodedFrameCount = 0
    /// Frames whose timestamp did not increase: left out (`.skip`) or moved up (`.bump`).
    package var adjustedTimestampCount = 0
    /// The last admitted frame's timestamp in milliseconds (sampled or not), or nil before any.
    package var lastTimestamp: Int?
    /// Frames handed to the task.
    package var processedFrameCount = 0
    /// Frames the task failed on (with `FrameErrorPolicy.continue`, the run went past them).
    package var failedFrameCount = 0

    package init(source: VideoSourceFacts) { self.source = source }

    /// Whether the frames ended well before the container's duration (a cut file): more than
    /// three frame intervals (100 ms when the rate is unknown) and 100 ms before it.
    package var endsEarly: Bool {
        guard let duration = source.durationInMilliseconds, let lastTimestamp else { return false }
        let frameInterval = source.frameRate.map { 1000 / max($0, 1) } ?? 100
        // Doubles: damaged containers can give any Int here, and the difference must not trap.
        return Double(duration) - Double(lastTimestamp) > 3 * frameInterval + 100
    }
}
