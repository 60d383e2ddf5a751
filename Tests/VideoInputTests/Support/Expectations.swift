import Foundation
import TasksCommon
import Testing
@testable import VideoInput

/// Reads every frame of `source` until nil.
func readAllFrames(_ source: VideoSource) throws(TasksError) -> [VideoFrame] {
    var frames: [VideoFrame] = []
    while let frame = try source.nextFrame() {
        frames.append(frame)
    }
    return frames
}

/// Seconds since an arbitrary start, for measuring how long a call took.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
