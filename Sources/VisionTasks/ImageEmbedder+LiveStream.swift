import Foundation

extension ImageEmbedder {
    /// Sends a live-stream frame for embedding and returns at once. Requires
    /// `RunningMode.liveStream`. The result goes to the delegate (and the stream of
    /// `liveStream(options:bufferingPolicy:)`) on a private serial queue. While a frame is being
    /// embedded, the newest frame waits and replaces any frame waiting before it; a replaced
    /// frame is dropped without a callback, as MediaPipe's flow limiter does.
    /// - Parameters:
    ///   - image: the frame; its `orientation` is applied.
    ///   - timestampInMilliseconds: strictly increasing, in milliseconds, across all frames sent.
    /// - Throws: `TasksError` invalidArgument when not in live-stream mode or for a timestamp not
    ///   greater than the last; failedPrecondition after `close()`. A bad region of interest is
    ///   reported to the delegate, as in MediaPipe, where the graph checks it.
    public func embedAsync(image: MPImage, timestampInMilliseconds: Int) throws {
        try embedAsync(image: image, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: .zero)
    }

    /// Sends the region of interest of a live-stream frame for embedding; see
    /// `embedAsync(image:timestampInMilliseconds:)`.
    /// - Parameters:
    ///   - image: The frame.
    ///   - timestampInMilliseconds: The frame's time in milliseconds, greater than the last.
    ///   - regionOfInterest: normalized [0, 1], top-left origin; `CGRect.zero` for all.
    public func embedAsync(image: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect) throws {
        try runner.processLiveStreamFrame(image, regionOfInterest: regionOfInterest, timestamp: timestampInMilliseconds)
    }

    /// Creates a live-stream embedder whose results also arrive as an `AsyncStream`, in
    /// timestamp order; with this, `imageEmbedderLiveStreamDelegate` may be nil. Not in
    /// MediaPipe: the Swift-native way to consume live results with `for await`.
    /// - Parameters:
    ///   - options: the options; `runningMode` is taken as `.liveStream` whatever it says.
    ///   - bufferingPolicy: what the stream keeps while nobody reads it.
    /// - Returns: the embedder and the stream, which finishes when the embedder is closed.
    /// - Throws: as `init(options:)`.
    public static func liveStream(
        options: ImageEmbedderOptions,
        bufferingPolicy: AsyncStream<ImageEmbedderLiveStreamResult>.Continuation.BufferingPolicy = .unbounded
    ) throws -> (embedder: ImageEmbedder, results: AsyncStream<ImageEmbedderLiveStreamResult>) {
        let (stream, continuation) = AsyncStream<ImageEmbedderLiveStreamResult>.makeStream(bufferingPolicy: bufferingPolicy)
        let embedder = try options.creatingLiveStream { try ImageEmbedder(options: options, stream: continuation) }
        return (embedder, stream)
    }

    /// Live-stream counters: frames received, processed and dropped, and the last latency.
    /// All zero outside live-stream mode.
    public var liveStreamStatistics: LiveStreamStatistics { runner.liveStreamStatistics }

    /// Stops a live-stream embedder: no frame is accepted afterwards, the waiting frame is
    /// dropped, the frame in flight finishes, and no callback or stream element arrives after
    /// `close()` returns. Also done when the embedder is released. No effect in other modes.
    public func close() {
        runner.close()
    }

    /// Hands live-stream outcomes to the stream of `liveStream(options:bufferingPolicy:)` and to
    /// the delegate (held weakly, as in MediaPipe), with the embedder that `owner` will name once
    /// it exists.
    static func liveStreamDelivery(
        owner: WeakReference<ImageEmbedder>, delegate: (any ImageEmbedderLiveStreamDelegate)?,
        stream: AsyncStream<ImageEmbedderLiveStreamResult>.Continuation?
    ) -> @Sendable (LiveStreamRunner<ImageEmbedderResult>.Outcome) -> Void {
        let receiver = WeakReference<AnyObject>(delegate)
        return { outcome in
            stream?.yield(
                ImageEmbedderLiveStreamResult(timestampInMilliseconds: outcome.timestampInMilliseconds, result: outcome.result))
            guard let embedder = owner.object, let delegate = receiver.object as? any ImageEmbedderLiveStreamDelegate
            else { return }
            delegate.imageEmbedder(
                embedder, didFinishEmbedding: outcome.value, timestampInMilliseconds: outcome.timestampInMilliseconds,
                error: outcome.error)
        }
    }
}
