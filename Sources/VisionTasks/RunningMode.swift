/// How a vision task receives its input. Mirrors MediaPipe Tasks iOS `RunningMode`.
public enum RunningMode: Sendable, Equatable, CustomStringConvertible {
    /// Single images: `classify(image:)`, `embed(image:)`. The default.
    case image
    /// Decoded video frames with strictly increasing timestamps:
    /// `classify(videoFrame:timestampInMilliseconds:)`, `embed(videoFrame:timestampInMilliseconds:)`.
    case video
    /// A live stream: `classifyAsync(image:timestampInMilliseconds:)` and
    /// `embedAsync(image:timestampInMilliseconds:)` return at once and the result goes to the
    /// task's live-stream delegate.
    case liveStream

    /// MediaPipe's name for the mode in error messages: "Image", "Video", "Live Stream".
    public var description: String {
        switch self {
        case .image: "Image"
        case .video: "Video"
        case .liveStream: "Live Stream"
        }
    }
}
