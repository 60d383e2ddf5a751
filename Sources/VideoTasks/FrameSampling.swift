import ImageTasks

/// Which of a video's frames a run processes, counted among the frames whose timestamps were
/// admitted (`FrameTimestamps`): every Nth (`classify-video --every`), at most F per second of
/// video time (`--fps`), or frames at least a fixed interval apart (the server's video route).
///
/// The time-based policies measure presentation time, not a frame count, so a variable frame
/// rate keeps its real gaps: the first frame is taken, then the first frame at or after the
/// taken frame's time plus the interval.
package enum FrameSampling: Sendable, Equatable {
    /// Every Nth frame, starting with the first (1: all; values below 1 count as 1).
    case every(Int)
    /// At most this many frames per second of video time (positive): an interval of 1000 / F ms.
    case perSecond(Double)
    /// Frames at least this many milliseconds apart in video time.
    case interval(milliseconds: Int)

    /// Every frame.
    package static let all = FrameSampling.every(1)

    /// The sampling state of one run, starting at the first frame.
    struct Sampler {
        let sampling: FrameSampling
        /// Frames offered so far.
        private var offered = 0
        /// The earliest time, in milliseconds, the next frame may be taken at (time-based policies).
        private var next: Double?

        init(_ sampling: FrameSampling) { self.sampling = sampling }

        /// Whether to take the frame shown at `time` milliseconds.
        mutating func take(_ time: Int) -> Bool {
            defer { offered += 1 }
            switch sampling {
            case .every(let n): return offered % max(n, 1) == 0
            case .perSecond(let rate): return takeSpaced(time, interval: 1000 / rate)
            case .interval(let milliseconds): return takeSpaced(time, interval: Double(milliseconds))
            }
        }

        // Doubles: a damaged container's timestamp near Int.max plus the interval must not trap.
        private mutating func takeSpaced(_ time: Int, interval: Double) -> Bool {
            if let next, Double(time) < next { return false }
            next = Double(time) + interval
            return true
        }
    }
}
