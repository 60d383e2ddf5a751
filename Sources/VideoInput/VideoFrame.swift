import Imaging

/// One decoded video frame: RGB pixels, when it is shown, and how to turn it upright.
package struct VideoFrame: Sendable {
    /// The frame's pixels as stored in the stream (not rotated), converted to `.rgb8` from the
    /// decoder's format with the stream's colour matrix and range; rows may be padded
    /// (`bytesPerRow`).
    package let pixels: PixelImage
    /// When the frame is shown, in milliseconds from the start of the video stream (the first
    /// frame is about 0): the frame's presentation timestamp from the container
    /// (`best_effort_timestamp`), not a frame count, so variable frame rates keep their
    /// real gaps. A frame without a timestamp gets the previous frame's + 1 ms (0 for a
    /// first frame). Timestamps of damaged files are passed on as they are, so they may repeat
    /// or go backwards there.
    package let timestampInMilliseconds: Int
    /// How to turn `pixels` to display them upright, from the display matrix of the frame or
    /// the stream (the rotation tag of phone videos); `.up` when there is none.
    package let orientation: ImageOrientation

    /// Creates a frame from its parts.
    package init(pixels: PixelImage, timestampInMilliseconds: Int, orientation: ImageOrientation) {
        self.pixels = pixels
        self.timestampInMilliseconds = timestampInMilliseconds
        self.orientation = orientation
    }
}
