import ImageTasks
import TasksCommon
import VideoTasks

/// What a video command says on stderr when a run ended: the error that stopped it, or the
/// damage it went past (skipped packets, frames ending before the container's duration), and
/// the frames whose timestamp did not increase. FFmpeg players carry on past damage, and so do
/// the commands (exit status 0).
enum VideoRunWarnings {
    /// Reports how `end` ended.
    /// - Returns: whether the run reached the end of the video (no error was reported).
    static func report(_ end: VideoRunEnd) -> Bool {
        let facts = end.facts
        if let failure = end.failure {
            // A failed read's error already counts the damaged packets.
            StandardStreams.reportError(failure)
        } else {
            warnAboutDamage(facts)
        }
        if facts.adjustedTimestampCount > 0 {
            StandardStreams.warn(
                "warning: \(TableText.escaped(facts.source.url)): skipped \(facts.adjustedTimestampCount) frame(s) "
                    + "whose timestamp did not increase (repeated or reordered in the container, or less than 1 ms apart)")
        }
        return end.failure == nil
    }

    /// Says when the results cover less than the whole video.
    private static func warnAboutDamage(_ facts: VideoRunFacts) {
        var warnings: [String] = []
        if facts.damagedPacketCount > 0 {
            warnings.append("\(facts.damagedPacketCount) damaged packet(s) were skipped")
        }
        if facts.endsEarly, let lastTimestamp = facts.lastTimestamp, let duration = facts.source.durationInMilliseconds {
            warnings.append("the frames end at \(lastTimestamp) ms of a \(duration) ms video (is the file cut?)")
        }
        guard !warnings.isEmpty else { return }
        StandardStreams.warn(
            "warning: \(TableText.escaped(facts.source.url)): \(warnings.joined(separator: "; ")); "
                + "the results cover only the frames that decoded")
    }
}
