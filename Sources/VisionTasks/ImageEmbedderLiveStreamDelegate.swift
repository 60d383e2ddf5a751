/// Receives live-stream results. Mirrors MediaPipe Tasks iOS `ImageEmbedderLiveStreamDelegate`.
///
/// Set it as `ImageEmbedderOptions.imageEmbedderLiveStreamDelegate`; the embedder holds it
/// weakly. Its method runs on the embedder's private serial queue, one call at a time, in
/// timestamp order; a slow delegate delays later callbacks but never `embedAsync`.
///
/// The method is optional in MediaPipe (an `@objc` protocol); here it is a requirement with no
/// default implementation, as in `ImageClassifierLiveStreamDelegate`, so that a misspelt method
/// does not compile instead of never being called.
public protocol ImageEmbedderLiveStreamDelegate: AnyObject {
    /// Called with the result of a frame passed to `embedAsync`; frames dropped because a newer
    /// one arrived while the embedder was busy get no call.
    /// - Parameters:
    ///   - imageEmbedder: the embedder.
    ///   - result: the embeddings, or nil when embedding failed.
    ///   - timestampInMilliseconds: the frame's timestamp (MediaPipe iOS passes `Int.min` on
    ///     errors; this port passes the frame's timestamp in both cases).
    ///   - error: the failure, or nil.
    func imageEmbedder(
        _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}
