import Foundation
import ImageTasks
import VisionTasks

/// The classifier on the video runner: `classify(videoFrame:timestampInMilliseconds:regionOfInterest:)`
/// in video mode (`classify-video`, the server's video route), `classifyAsync` in live-stream
/// mode (`live`).
extension ImageClassifier: VideoTask, LiveStreamTask {
    package func result(
        forVideoFrame videoFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect
    ) throws -> ImageClassifierResult {
        try classify(videoFrame: videoFrame, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: regionOfInterest)
    }

    package func send(liveStreamFrame: MPImage, timestampInMilliseconds: Int, regionOfInterest: CGRect) throws {
        try classifyAsync(
            image: liveStreamFrame, timestampInMilliseconds: timestampInMilliseconds, regionOfInterest: regionOfInterest)
    }
}
