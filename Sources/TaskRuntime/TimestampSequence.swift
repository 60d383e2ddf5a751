import TasksCommon

/// The timestamps of video and live-stream inputs: each must be greater than the last one
/// accepted, as MediaPipe's graph requires.
package struct TimestampSequence: Sendable {
    /// The last timestamp accepted, in milliseconds.
    package private(set) var last: Int?

    package init() {}

    /// Records `timestamp` (milliseconds) as the newest input.
    /// - Throws: `TasksError` invalidArgument "Input timestamp must be monotonically
    ///   increasing." (MediaPipe's message) unless it is greater than the last; nothing is
    ///   recorded then.
    package mutating func accept(_ timestamp: Int) throws(TasksError) {
        if let last, timestamp <= last {
            throw .invalidArgument("Input timestamp must be monotonically increasing.")
        }
        last = timestamp
    }
}
