import ImageTasks

/// The timestamps a video or live source's frames are given to a task with: MediaPipe's video
/// and live-stream modes need them strictly increasing, and containers and cameras do not
/// always give that (repeated or reordered timestamps, frames less than 1 ms apart).
package struct FrameTimestamps: Sendable {
    /// What to do with a frame whose timestamp is not above the last one given.
    package enum Policy: Sendable {
        /// Leave the frame out (a file: its frames can wait; `classify-video`).
        case skip
        /// Give it the last timestamp + 1 ms (a live source: every frame is the newest; `live`).
        case bump
    }

    package let policy: Policy
    /// The last timestamp given, in milliseconds.
    package private(set) var last: Int?
    /// Frames left out (`.skip`) or moved (`.bump`) so far.
    package private(set) var adjusted = 0

    package init(_ policy: Policy) {
        self.policy = policy
    }

    /// The timestamp to give the frame stamped `timestamp` (milliseconds), or nil to leave it out.
    package mutating func admit(_ timestamp: Int) -> Int? {
        guard let last, timestamp <= last else {
            self.last = timestamp
            return timestamp
        }
        adjusted += 1
        switch policy {
        case .skip:
            return nil
        case .bump:
            // At Int.max there is nothing above: the frame is left out rather than wrapped around.
            guard last < .max else { return nil }
            self.last = last + 1
            return last + 1
        }
    }
}
