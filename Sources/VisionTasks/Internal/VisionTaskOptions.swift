import TasksCommon

/// What the shared creation checks read from a vision task's options class.
protocol VisionTaskOptions: AnyObject {
    /// The running mode.
    var runningMode: RunningMode { get set }
    /// Whether the task's live-stream delegate is set.
    var hasLiveStreamDelegate: Bool { get }
    /// The delegate option's name, such as "imageClassifierLiveStreamDelegate": the subject of
    /// the delegate errors.
    static var liveStreamDelegateOption: String { get }
}

extension VisionTaskOptions {
    /// MediaPipe iOS's creation checks: a delegate (or, here, the stream of
    /// `liveStream(options:)`) exactly in live-stream mode.
    /// - Parameter streaming: whether results also go to an `AsyncStream`.
    /// - Throws: `TasksError` invalidArgument with MediaPipe iOS's messages, raised in its
    ///   Objective-C layer (no status name in the description).
    func checkLiveStreamDelegate(streaming: Bool) throws(TasksError) {
        let subject = TasksError.Subject.option(Self.liveStreamDelegateOption)
        if runningMode == .liveStream, !hasLiveStreamDelegate, !streaming {
            throw TasksError(
                .invalidArgumentError,
                "The vision task is in live stream mode. An object must be set as the "
                    + "delegate of the task in its options to ensure asynchronous delivery of results.",
                subject: subject, layer: .platformAPI)
        }
        if runningMode != .liveStream, hasLiveStreamDelegate {
            throw TasksError(
                .invalidArgumentError,
                "The vision task is in image or video mode. The delegate must not be set in the task's options.",
                subject: subject, layer: .platformAPI)
        }
    }

    /// Creates a task whose results also go to a stream: with `runningMode` taken as
    /// `.liveStream` for the checks and `create`, and left as the caller set it afterwards.
    /// - Throws: as `checkLiveStreamDelegate(streaming:)`, and what `create` throws.
    func creatingLiveStream<Task>(_ create: () throws -> Task) throws -> Task {
        let mode = runningMode
        runningMode = .liveStream
        defer { runningMode = mode }
        try checkLiveStreamDelegate(streaming: true)
        return try create()
    }
}
