import Foundation
import TasksCommon

extension ImageClassifier {
    /// Classifies an image without blocking a cooperative thread: the work runs on a Dispatch
    /// queue and the caller's task is suspended meanwhile. Requires `RunningMode.image`. Not in
    /// MediaPipe; named apart from `classify(image:)` so that MediaPipe code calling
    /// `classify(image:)` inside an `async` function still compiles unchanged.
    /// - Parameters:
    ///   - image: the image; its `orientation` is applied.
    ///   - regionOfInterest: normalized [0, 1], top-left origin; `CGRect.zero` for the whole image.
    /// - Returns: as `classify(image:regionOfInterest:)`.
    /// - Throws: as `classify(image:regionOfInterest:)`.
    public func classification(of image: MPImage, regionOfInterest: CGRect = .zero) async throws -> ImageClassifierResult {
        try await runner.offload { try self.classify(image: image, regionOfInterest: regionOfInterest) }
    }

    /// Classifies a video frame without blocking a cooperative thread. Requires `RunningMode.video`.
    /// - Parameters:
    ///   - videoFrame: the frame; its `orientation` is applied.
    ///   - timestampInMilliseconds: strictly increasing, in milliseconds.
    ///   - regionOfInterest: normalized [0, 1], top-left origin; `CGRect.zero` for the whole frame.
    /// - Throws: as `classify(videoFrame:timestampInMilliseconds:regionOfInterest:)`.
    public func classification(
        ofVideoFrame videoFrame: MPImage, timestampInMilliseconds: Int,
        regionOfInterest: CGRect = .zero
    ) async throws -> ImageClassifierResult {
        try await runner.offload {
            try self.classify(
                videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds,
                regionOfInterest: regionOfInterest)
        }
    }

}
