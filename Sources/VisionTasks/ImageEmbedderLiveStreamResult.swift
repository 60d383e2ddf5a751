/// One live-stream outcome, as the `AsyncStream` of `ImageEmbedder.liveStream(options:bufferingPolicy:)`
/// delivers it. Not in MediaPipe (the counterpart of the classifier's `LiveStreamResult`).
public struct ImageEmbedderLiveStreamResult: Sendable {
    /// The frame's timestamp in milliseconds.
    public let timestampInMilliseconds: Int
    /// The embeddings, or the error for that frame.
    public let result: Result<ImageEmbedderResult, TasksError>
}
