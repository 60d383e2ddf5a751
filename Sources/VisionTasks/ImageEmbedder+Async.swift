import Foundation

extension ImageEmbedder {
    /// Embeds an image without blocking a cooperative thread: the work runs on a Dispatch queue
    /// and the caller's task is suspended meanwhile. Requires `RunningMode.image`. Not in
    /// MediaPipe; named apart from `embed(image:)` so that MediaPipe code calling `embed(image:)`
    /// inside an `async` function still compiles unchanged.
    /// - Parameters:
    ///   - image: the image; its `orientation` is applied.
    ///   - regionOfInterest: normalized [0, 1], top-left origin; `CGRect.zero` for the whole image.
    /// - Returns: as `embed(image:regionOfInterest:)`.
    /// - Throws: as `embed(image:regionOfInterest:)`.
    public func embedding(of image: MPImage, regionOfInterest: CGRect = .zero) async throws -> ImageEmbedderResult {
        try await runner.offload { try self.embed(image: image, regionOfInterest: regionOfInterest) }
    }

    /// Embeds a video frame without blocking a cooperative thread. Requires `RunningMode.video`.
    /// - Parameters:
    ///   - videoFrame: the frame; its `orientation` is applied.
    ///   - timestampInMilliseconds: strictly increasing, in milliseconds.
    ///   - regionOfInterest: normalized [0, 1], top-left origin; `CGRect.zero` for the whole frame.
    /// - Throws: as `embed(videoFrame:timestampInMilliseconds:regionOfInterest:)`.
    public func embedding(
        ofVideoFrame videoFrame: MPImage, timestampInMilliseconds: Int,
        regionOfInterest: CGRect = .zero
    ) async throws -> ImageEmbedderResult {
        try await runner.offload {
            try self.embed(
                videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds,
                regionOfInterest: regionOfInterest)
        }
    }
}
