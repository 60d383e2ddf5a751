/// Receives live-stream results. Mirrors MediaPipe Tasks iOS `ImageClassifierLiveStreamDelegate`.
///
/// Set it as `ImageClassifierOptions.imageClassifierLiveStreamDelegate`; the classifier holds it
/// weakly. Its method runs on the classifier's private serial queue, one call at a time, in
/// timestamp order; a slow delegate delays later callbacks but never `classifyAsync`.
///
/// The method is optional in MediaPipe (an `@objc` protocol); here it is a requirement with no
/// default implementation, so that a class whose method name or parameter types are misspelt
/// does not compile (it would otherwise conform silently and never get a result).
public protocol ImageClassifierLiveStreamDelegate: AnyObject {
    /// Called with the result of a frame passed to `classifyAsync`; frames dropped because a
    /// newer one arrived while the classifier was busy get no call.
    /// - Parameters:
    ///   - imageClassifier: the classifier.
    ///   - result: the result, or nil when classification failed.
    ///   - timestampInMilliseconds: the frame's timestamp (MediaPipe iOS passes `Int.min` on
    ///     errors; this port passes the frame's timestamp in both cases).
    ///   - error: the failure, or nil.
    func imageClassifier(
        _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// One live-stream outcome, as the `AsyncStream` of `ImageClassifier.liveStream(options:)` delivers it.
public struct LiveStreamResult: Sendable {
    /// The frame's timestamp in milliseconds.
    public let timestampInMilliseconds: Int
    /// The classification, or the error for that frame.
    public let result: Result<ImageClassifierResult, TasksError>
}

/// Live-stream counters. Frames dropped are those replaced by a newer frame while waiting.
public struct LiveStreamStatistics: Sendable, Equatable {
    /// Frames accepted by `classifyAsync`.
    public var framesReceived = 0
    /// Frames classified (successfully or not).
    public var framesProcessed = 0
    /// Frames dropped without a callback because a newer frame replaced them.
    public var framesDropped = 0
    /// The time from `classifyAsync` to the end of classification of the last processed frame, in milliseconds.
    public var lastLatencyInMilliseconds: Double?
}
