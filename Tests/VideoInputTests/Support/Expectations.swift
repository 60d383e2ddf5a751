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

/// Expects `body` to throw a `TasksError` with `code` whose message contains `fragment`, and
/// returns it (nil, after recording an issue, otherwise).
@discardableResult
func expectTasksError<T>(_ code: TasksErrorCode, containing fragment: String? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation,
                         _ body: () throws(TasksError) -> T) -> TasksError? {
    do {
        _ = try body()
        Issue.record("expected a TasksError \(code), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let fragment {
            #expect(error.message.contains(fragment), "message lacks '\(fragment)': \(error.message)", sourceLocation: sourceLocation)
        }
        return error
    }
}

/// Expects the timestamps to be strictly increasing.
func expectIncreasing(_ timestamps: [Int], sourceLocation: SourceLocation = #_sourceLocation) {
    for (previous, next) in zip(timestamps, timestamps.dropFirst()) where next <= previous {
        Issue.record("timestamps not increasing: \(previous) then \(next) in \(timestamps)", sourceLocation: sourceLocation)
        return
    }
}

/// Seconds since an arbitrary start, for measuring how long a call took.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
