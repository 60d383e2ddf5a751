import ImageTasks
import VideoInput

/// What a video source says about itself once open, as a run reports it.
package struct VideoSourceFacts: Sendable, Equatable {
    /// The source's URL or path, as `VideoSource.url` gives it.
    package let url: String
    /// The stream's average frame rate in frames per second, or nil when the container does not say.
    package let frameRate: Double?
    /// The container's duration in milliseconds, or nil when it does not say (a live stream).
    package let durationInMilliseconds: Int?

    /// The facts of an open source.
    init(_ source: VideoSource) {
        (url, frameRate, durationInMilliseconds) = (source.url, source.frameRate, source.durationInMilliseconds)
    }
}
