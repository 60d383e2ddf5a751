import ImageTasks
import TasksCommon
import VideoInput

extension VideoFrameRunner {
    /// Where a run's frames come from: the source read on the runner's thread, or read ahead on
    /// a thread of its own.
    enum Feed {
        case direct(VideoSource)
        case readAhead(FrameReadAhead)

        /// Opens `url`, reading `readAhead` frames ahead on a thread of its own when above 0.
        /// - Throws: `TasksError` as `VideoSource.init(url:options:)`.
        static func open(
            url: String, options: VideoSourceOptions, readAhead: Int
        ) throws(TasksError) -> (Feed, VideoSourceFacts) {
            guard readAhead > 0 else {
                let source = try VideoSource(url: url, options: options)
                return (.direct(source), VideoSourceFacts(source))
            }
            let reader = FrameReadAhead(url: url, options: options, capacity: readAhead)
            return (.readAhead(reader), try reader.waitForOpen().get())
        }

        /// The next frame; nil at the end of the video.
        /// - Throws: the source's read error.
        func next() throws(TasksError) -> VideoFrame? {
            switch self {
            case .direct(let source): try source.nextFrame()
            case .readAhead(let reader): try reader.next()
            }
        }

        /// Packets skipped as damaged so far (final at the end of the video).
        var damagedPacketCount: Int {
            switch self {
            case .direct(let source): source.damagedPacketCount
            case .readAhead(let reader): reader.damagedPacketCount
            }
        }

        /// Lets a reading thread go when the run stops before the end of the video.
        func abandon() {
            if case .readAhead(let reader) = self { reader.abandon() }
        }
    }
}
