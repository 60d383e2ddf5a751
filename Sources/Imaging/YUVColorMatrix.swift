/// The matrix that turns the Y', Cb, Cr of a YUV image into R', G', B': the standard whose
/// luma weights (Kr, Kb) the image was encoded with.
///
/// Cameras, JPEG and standard-definition video use BT.601; HD video (H.264, HEVC and VP9 at
/// 720p and up) is normally BT.709 and says so in its stream (`colorspace` in `ffprobe`); UHD
/// and HDR video is BT.2020. Decoding a BT.709 picture with BT.601 shifts its colours visibly
/// (greens and reds by several levels), which is why a video frame carries its matrix.
///
/// The conversion is FFmpeg swscale's exact path (see `YUVColorRange` for the formulas, which
/// are the same for every matrix). Only the four chroma coefficients depend on the matrix; they
/// are derived from swscale's table `ff_yuv2rgb_coeffs` (libswscale/yuv2rgb.c: `{crv, cbu,
/// cgu, cgv}` in 16.16 fixed point, for chroma spanning 224 levels) the way swscale derives
/// them (`ff_yuv2rgb_c_init_tables`):
///
/// 1. `cgu` and `cgv` are negated (they subtract);
/// 2. in full range each is scaled by 224 / 255 with C's integer division (truncated toward
///    zero); in video range they stay as they are and `cY = 65536 · 255 / 219` (truncated)
///    scales the luma instead;
/// 3. each becomes 13-bit fixed point as `(c · 2^13 + 2^15) >> 16` (swscale's `roundToInt16`;
///    `>>` is an arithmetic shift, so halves round up).
///
/// | matrix        | Kr     | Kb     | crv    | cbu    | cgu   | cgv   | video cVR, cUG, cVG, cUB | full cVR, cUG, cVG, cUB |
/// |---------------|--------|--------|--------|--------|-------|-------|--------------------------|-------------------------|
/// | `.bt601`      | 0.299  | 0.114  | 104597 | 132201 | 25675 | 53279 | 13075, −3209, −6660, 16525 | 11485, −2819, −5850, 14516 |
/// | `.bt709`      | 0.2126 | 0.0722 | 117489 | 138438 | 13975 | 34925 | 14686, −1747, −4366, 17305 | 12901, −1534, −3835, 15201 |
/// | `.bt2020`     | 0.2627 | 0.0593 | 110013 | 140363 | 12277 | 42626 | 13752, −1535, −5328, 17545 | 12080, −1348, −4680, 15412 |
/// | `.smpte240m`  | 0.212  | 0.087  | 117579 | 136230 | 16907 | 35559 | 14697, −2113, −4445, 17029 | 12911, −1856, −3904, 14959 |
/// | `.fcc`        | 0.30   | 0.11   | 104448 | 132798 | 24759 | 53109 | 13056, −3095, −6639, 16600 | 11469, −2719, −5831, 14582 |
///
/// (the 13-bit coefficients divided by 8192 are the familiar ones: BT.709 video range is
/// R = 1.164 (Y − 16) + 1.793 v, G = 1.164 (Y − 16) − 0.213 u − 0.533 v, B = 1.164 (Y − 16) +
/// 2.112 u). BT.601's row gives exactly the values this project used before matrices existed.
/// Checked against FFmpeg 5.1's `ffmpeg -f rawvideo -pix_fmt yuv444p ... -vf
/// scale=in_color_matrix=bt709:in_range=tv|pc -sws_flags accurate_rnd+full_chroma_int+bitexact
/// -pix_fmt rgb24` for all 2^24 (Y, U, V) of every matrix and range: identical in full range;
/// in video range identical but for the same exception as BT.601's, where a channel's exact
/// value is 512 or more (far out of gamut: Y near 255 with extreme chroma), swscale's 32-bit
/// intermediate overflows and gives 0 while this conversion saturates to 255 (33,024 triples
/// for BT.601, 70,144 for BT.709, 83,968 for BT.2020, 55,552 for SMPTE 240M, 35,840 for FCC).
/// The tests compare a grid of the cube with the `ffmpeg` command at test time.
///
/// BT.2020 is its non-constant-luminance form (`bt2020nc`); a constant-luminance stream is
/// read with the same matrix, as libswscale reads it.
public enum YUVColorMatrix: Sendable, CaseIterable {
    /// ITU-R BT.601 (also BT.470 System B/G, SMPTE 170M, JPEG's YCbCr): Kr = 0.299,
    /// Kb = 0.114. The default: standard-definition video, cameras and anything that does not
    /// state its matrix (as libswscale assumes).
    case bt601
    /// ITU-R BT.709: Kr = 0.2126, Kb = 0.0722. HD video.
    case bt709
    /// ITU-R BT.2020 non-constant luminance: Kr = 0.2627, Kb = 0.0593. UHD and HDR video
    /// (the matrix only: the transfer function is not applied, as libswscale does not apply it).
    case bt2020
    /// SMPTE 240M (1987): Kr = 0.212, Kb = 0.087. Early HD video.
    case smpte240m
    /// The US FCC's 1953 NTSC matrix (47 CFR 73.682): Kr = 0.30, Kb = 0.11.
    case fcc

    /// swscale's `ff_yuv2rgb_coeffs` row: `{crv, cbu, cgu, cgv}` in 16.16 fixed point, the
    /// magnitudes of V→R, U→B, U→G and V→G for chroma spanning 224 levels.
    var swscaleInverseCoefficients: (crv: Int64, cbu: Int64, cgu: Int64, cgv: Int64) {
        switch self {
        case .bt601: (104597, 132201, 25675, 53279)
        case .bt709: (117489, 138438, 13975, 34925)
        case .bt2020: (110013, 140363, 12277, 42626)
        case .smpte240m: (117579, 136230, 16907, 35559)
        case .fcc: (104448, 132798, 24759, 53109)
        }
    }
}
