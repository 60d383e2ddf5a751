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
