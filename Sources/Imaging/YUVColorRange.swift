/// The range of the 8-bit Y, U (Cb) and V (Cr) values of a YUV image, which with the
/// `YUVColorMatrix` (BT.601 unless stated) selects the conversion to RGB.
///
/// The conversion is FFmpeg's swscale (libswscale 6, FFmpeg 5.1) in its exact path
/// (`yuv2rgb_write_full`, used with `SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT`), in 13-bit fixed
/// point: with `u = U − 128`, `v = V − 128`,
///
///     R = clamp((cY · (Y − yOffset) + cVR · v            + 4096) >> 13)
///     G = clamp((cY · (Y − yOffset) + cUG · u + cVG · v  + 4096) >> 13)
///     B = clamp((cY · (Y − yOffset) + cUB · u            + 4096) >> 13)
///
/// where `>>` is an arithmetic shift (rounding half up after adding 4096 = 0.5 · 8192) and
/// `clamp` saturates to 0...255. The coefficients (÷ 8192) are swscale's, derived from a row of
/// its `ff_yuv2rgb_coeffs` table as `YUVColorMatrix` describes; for BT.601 (swscale's default,
/// `SWS_CS_ITU601`), the row `{104597, 132201, 25675, 53279}` (1.596, 2.017, 0.392, 0.813 in
/// 16.16 fixed point, Kr = 0.299, Kb = 0.114) gives:
///
/// | range    | yOffset | cY   | cVR   | cUG   | cVG   | cUB   |
/// |----------|---------|------|-------|-------|-------|-------|
/// | `.video` | 16      | 9539 | 13075 | −3209 | −6660 | 16525 |
/// | `.full`  | 0       | 8192 | 11485 | −2819 | −5850 | 14516 |
///
/// that is R = 1.16443 (Y − 16) + 1.59607 v, G = 1.16443 (Y − 16) − 0.39172 u − 0.81299 v,
/// B = 1.16443 (Y − 16) + 2.01721 u for video range, and R = Y + 1.40198 v,
/// G = Y − 0.34412 u − 0.71411 v, B = Y + 1.77197 u for full range.
///
/// BT.601 checked against FFmpeg 5.1 (`ffmpeg -f rawvideo -pix_fmt yuv444p ... -sws_flags
/// accurate_rnd+full_chroma_int+bitexact -pix_fmt rgb24`) for all 2^24 (Y, U, V): identical in
/// full range; in video range identical except 33,024 out-of-gamut triples (Y ≥ 236 with
/// U ≥ 244), where swscale's 32-bit intermediate overflows and its blue wraps to 0 while this
/// conversion saturates to 255. With nearest-neighbour chroma (`-sws_flags
/// neighbor+accurate_rnd+full_chroma_int+bitexact`), FFmpeg converts even-sized NV12, NV21,
/// I420 and YUYV frames exactly as here (that overflow aside). FFmpeg's default flags are less
/// exact: for I420 each term is truncated on its own (its `pmulhw` path), up to 3 levels
/// apart; decoded video frames (yuv420p, yuvj420p) follow that rounding, so that they equal
/// `ffmpeg -pix_fmt rgb24` and OpenCV's `VideoCapture` (see VideoInput's "Frames and
/// colour"). libyuv's
/// `I420ToARGB` (`kYuvI601Constants`, 6-bit coefficients) is not what this follows. The other
/// matrices were checked the same way (see `YUVColorMatrix`).
public enum YUVColorRange: Sendable, CaseIterable {
    /// Limited ("video", "MPEG", "TV") range: black Y = 16, white Y = 235, neutral and
    /// extreme chroma 128 and 16...240. Values outside these ranges are accepted and saturate
    /// in RGB. As `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange`; what cameras and video
    /// decoders produce unless they say otherwise.
    case video
    /// Full ("JPEG", "PC") range: Y, U and V use all of 0...255, black Y = 0, white
    /// Y = 255. As `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange` and JPEG's YCbCr.
    case full
}
