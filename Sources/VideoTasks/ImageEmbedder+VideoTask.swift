import Foundation
import ImageTasks
import VisionTasks

/// The embedder on the video runner: `embed(videoFrame:timestampInMilliseconds:regionOfInterest:)`
/// in video mode, `embedAsync` in live-stream mode.
extension ImageEmbedder: VideoTask, LiveStreamTask {
    package func result(
        forVideoFrame videoFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect
    ) throws -> ImageEmbedderResult {
        try embed(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: regionOfInterest)
    }

    package func send(liveStreamFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect) throws {
        try embedAsync(
            image: liveStreamFrame, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: regionOfInterest)
    }
}
