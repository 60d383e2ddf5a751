/// The memory layout of an image's pixels: packed RGB or gray with 8 bits per channel, or
/// 8-bit Y'CbCr (YUV) as cameras and video decoders produce it.
///
/// YUV images are converted to RGB while they are preprocessed, with the `YUVColorMatrix`
/// (BT.601 unless stated) and the `YUVColorRange` given with the pixels (see `YUVColorRange`
/// for the formulas). Chroma is subsampled in all but `i444`: a `width` x `height` image has
/// `ceil(width / 2)` chroma samples per row, and `ceil(height / 2)` chroma rows for the 4:2:0
/// formats (`nv12`, `nv21`, `i420`). Every luma pixel uses the chroma sample that covers it
/// (column `x / 2`, row `y / 2` for 4:2:0), without interpolating between chroma samples.
public enum PixelFormat: Sendable {
    /// Red, green, blue, alpha (straight, not premultiplied): 4 bytes.
    case rgba8
    /// Blue, green, red, alpha (straight, not premultiplied), as `kCVPixelFormatType_32BGRA`: 4 bytes.
    case bgra8
    /// Red, green, blue: 3 bytes.
    case rgb8
    /// One luminance byte.
    case gray8
    /// 4:2:0 in two planes: a Y plane (`width` bytes per row, `height` rows), then a plane of
    /// interleaved U, V pairs (`ceil(width / 2)` pairs, so `2 · ceil(width / 2)` bytes per row,
    /// and `ceil(height / 2)` rows). As `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` and
    /// `...FullRange`, Android's `NV12`, FFmpeg's `nv12`.
    case nv12
    /// As `nv12` with V before U in each chroma pair: Android's `NV21` (the camera preview
    /// default), FFmpeg's `nv21`.
    case nv21
    /// 4:2:0 in three planes: Y (`width` x `height` bytes), then U, then V (each
    /// `ceil(width / 2)` x `ceil(height / 2)` bytes). As `kCVPixelFormatType_420YpCbCr8Planar`,
    /// Android's `YUV_420_888` with a pixel stride of 1, FFmpeg's `yuv420p`.
    case i420
    /// 4:2:2 packed in one plane: Y0, U, Y1, V for each pair of pixels (`4 · ceil(width / 2)`
    /// bytes per row; for an odd width the last pair's Y1 is ignored). As
    /// `kCVPixelFormatType_422YpCbCr8_yuvs`, V4L2's `YUYV`, FFmpeg's `yuyv422`.
    case yuyv
    /// 4:4:4 in three planes: Y, then U, then V, each `width` x `height` bytes (no chroma
    /// subsampling). As FFmpeg's `yuv444p`: what 4:4:4 JPEGs, lossless video (FFV1) and
    /// H.264/HEVC 4:4:4 profiles decode to.
    case i444

    /// The bytes one pixel occupies: 4, 4, 3 or 1 for the RGB and gray formats. For the YUV
    /// formats, the bytes per pixel of the first plane: 1 luma byte for `nv12`, `nv21`, `i420`
    /// and `i444` (their chroma is in further planes), 2 for `yuyv` (4 bytes per pair of pixels).
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8: 4
        case .rgb8: 3
        case .gray8, .nv12, .nv21, .i420, .i444: 1
        case .yuyv: 2
        }
    }
}
