/// How the fixed-point YUV-to-RGB sums are rounded. Both use libswscale's 13-bit coefficients
/// (see `YUVColorRange` and `YUVColorMatrix`); they differ by at most 3 levels per channel.
package enum YUVRounding: Sendable, Equatable {
    /// The sum of the terms, rounded once: `(cY (Y − yOffset) + cVR v + 4096) >> 13`.
    /// libswscale's exact path (`SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT`). Images and camera
    /// buffers use it.
    case roundedSum
    /// Each term truncated on its own, then added: `⌊8 (Y − yOffset) · cY / 2^16⌋ +
    /// ⌊8 v · cVR / 2^16⌋` (with `u`, `v` = `U − 128`, `V − 128`). libswscale's default
    /// 4:2:0-to-RGB path (its `pmulhw` converter, used whatever the width), so what
    /// `ffmpeg -pix_fmt rgb24` and OpenCV's `VideoCapture` (4.x with FFmpeg 5 and 5.x) give for
    /// yuv420p and yuvj420p streams: on average about 1 level darker than `roundedSum`.
    case truncatedTerms
}
