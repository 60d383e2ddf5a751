import Imaging
import VisionTasks

/// One decoded video frame: its picture, ready for `ImageClassifier`, and when it is shown.
///
/// The picture keeps the decoder's pixels: YUV frames stay YUV (4:2:0 as `.i420`, `.nv12` or
/// `.nv21`, 4:4:4 as `.i444`, packed 4:2:2 as `.yuyv`), tagged with the stream's
/// `YUVColorRange` and `YUVColorMatrix`, and are converted to RGB only where the classifier
/// samples them; RGB and gray frames stay RGB and gray. See `VideoSource.nextFrame()` for which
/// decoder formats are repacked first.
///
/// A value: `Sendable`, safe to hand to another task or thread (for example to classify while
/// the next frame decodes).
public struct VideoFrame: Sendable {
    /// The frame's picture as stored in the stream (not rotated), with `image.orientation`
    /// telling how to turn it upright (from the display matrix of the frame or the stream, the
    /// rotation tag of phone videos; `.up` when there is none). Pass it to
    /// `ImageClassifier.classify(videoFrame:timestampInMilliseconds:)` (video running mode) or
    /// `classifyAsync(image:timestampInMilliseconds:)` (live stream); the classifier applies the
    /// orientation. Its size is the frame's own, in pixels (`image.width`, `image.height`).
    public let image: MPImage
    /// When the frame is shown, in milliseconds from the start of the video stream (the first
    /// frame is about 0): the frame's presentation timestamp from the container
    /// (`best_effort_timestamp`), not a frame count, so variable frame rates keep their
    /// real gaps. A frame without a timestamp gets the previous frame's + 1 ms (0 for a
    /// first frame). Timestamps of damaged files are passed on as they are, so they may repeat
    /// or go backwards there (video mode refuses such a frame with `invalidArgumentError`:
    /// skip it).
    public let timestampInMilliseconds: Int

    /// The frame's pixels as stored in the stream (not rotated), in the decoder's layout (see
    /// above); rows may be padded (`bytesPerRow`).
    package var pixels: PixelImage { image.pixels }
    /// How to turn `pixels` to display them upright, from the display matrix of the frame or
    /// the stream (the rotation tag of phone videos); `.up` when there is none.
    package var orientation: ImageOrientation { image.orientation }

    /// Creates a frame from its parts.
    package init(pixels: PixelImage, timestampInMilliseconds: Int, orientation: ImageOrientation) {
        image = MPImage(pixels: pixels, orientation: orientation)
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
