import Foundation

extension ImageEmbedder {
    /// Embeds a decoded video frame. Requires `RunningMode.video`; blocks until done.
    /// - Parameters:
    ///   - videoFrame: the frame; its `orientation` is applied.
    ///   - timestampInMilliseconds: the frame's presentation time in milliseconds; strictly greater
    ///     than the previous frame's.
    /// - Returns: the embeddings, carrying `timestampInMilliseconds`.
    /// - Throws: `TasksError` invalidArgument when not in video mode, or for a timestamp not greater
    ///   than the last ("Input timestamp must be monotonically increasing.").
    public func embed(videoFrame: MPImage, timestampInMilliseconds: Int) throws -> ImageEmbedderResult {
        try embed(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: .zero)
    }

    /// Embeds the region of interest of a video frame; see `embed(videoFrame:timestampInMilliseconds:)`.
    /// - Parameters:
    ///   - videoFrame: the frame; its `orientation` is applied after cropping.
    ///   - timestampInMilliseconds: strictly increasing, in milliseconds.
    ///   - regionOfInterest: normalized [0, 1], top-left origin, stored-pixel coordinates;
    ///     `CGRect.zero` for the whole frame.
    /// - Throws: as `embed(videoFrame:timestampInMilliseconds:)`, and invalidArgument for a bad region.
    public func embed(
        videoFrame: MPImage, timestampInMilliseconds: Int,
        regionOfInterest: CGRect
    ) throws -> ImageEmbedderResult {
        try runner.processVideoFrame(videoFrame, regionOfInterest: regionOfInterest, timestamp: timestampInMilliseconds)
    }
}
