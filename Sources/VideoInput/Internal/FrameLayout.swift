import CFFmpeg
import Imaging

/// How the pixels of a decoded frame's format become a `PixelImage`: kept plane by plane (read
/// in place or copied) in a `PixelFormat` that Imaging's sampler reads, or first repacked by
/// libswscale into one.
///
/// The one YUV-to-RGB conversion is Imaging's, applied to the pixels the classifier samples:
/// libswscale is never asked to produce RGB from YUV. YUV formats the sampler does not read
/// are repacked YUV to YUV (same range, no matrix change); only RGB, palette, Bayer, XYZ and
/// gray formats other than `gray8` become `rgb24`.
enum FrameLayout: Equatable {
    /// The first planes of the frame (as many as `format` has) are kept as they are.
    case kept(PixelFormat)
    /// libswscale repacks the frame to `target` (`sws_scale`), whose planes are then `format`.
    case repacked(target: AVPixelFormat, format: PixelFormat)

    /// The layout of frames of `format`, or nil when FFmpeg does not describe the format.
    ///
    /// Kept: `yuv420p`, `yuvj420p` and `yuva420p` (alpha ignored) as `.i420`; `yuv444p`,
    /// `yuvj444p` and `yuva444p` as `.i444`; `nv12`, `nv21`; `yuyv422` as `.yuyv`; `rgb24` as
    /// `.rgb8`; `rgba` and `rgb0` as `.rgba8`, `bgra` and `bgr0` as `.bgra8` (alpha and padding
    /// ignored); `gray` as `.gray8`. Repacked: other YUV formats to `yuv444p` when their chroma
    /// is not subsampled, to `yuyv422` when it is halved horizontally only (4:2:2, as MJPEG
    /// cameras deliver), else to `yuv420p` (4:1:1, 4:4:0, 10-bit and semi-planar 4:2:0 such as
    /// `p010`); everything else (RGB, palette, Bayer, XYZ, 1-bit, 16-bit and alpha gray) to
    /// `rgb24`.
    init?(_ format: AVPixelFormat) {
        switch format {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVA420P: self = .kept(.i420)
        case AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVA444P: self = .kept(.i444)
        case AV_PIX_FMT_NV12: self = .kept(.nv12)
        case AV_PIX_FMT_NV21: self = .kept(.nv21)
        case AV_PIX_FMT_YUYV422: self = .kept(.yuyv)
        case AV_PIX_FMT_RGB24: self = .kept(.rgb8)
        case AV_PIX_FMT_RGBA, AV_PIX_FMT_RGB0: self = .kept(.rgba8)
        case AV_PIX_FMT_BGRA, AV_PIX_FMT_BGR0: self = .kept(.bgra8)
        case AV_PIX_FMT_GRAY8: self = .kept(.gray8)
        default:
            guard let descriptor = av_pix_fmt_desc_get(format) else { return nil }  // static FFmpeg data
            guard Self.isYUV(descriptor) else {
                self = .repacked(target: AV_PIX_FMT_RGB24, format: .rgb8)
                return
            }
            switch (descriptor.pointee.log2_chroma_w, descriptor.pointee.log2_chroma_h) {
            case (0, 0): self = .repacked(target: AV_PIX_FMT_YUV444P, format: .i444)
            case (1, 0): self = .repacked(target: AV_PIX_FMT_YUYV422, format: .yuyv)
            default: self = .repacked(target: AV_PIX_FMT_YUV420P, format: .i420)
            }
        }
    }

    /// Whether a described format holds Y'CbCr with chroma: not RGB, palette, Bayer, a
    /// hardware surface or XYZ, and with at least 3 components (gray has 1, gray with alpha 2).
    private static func isYUV(_ descriptor: UnsafePointer<AVPixFmtDescriptor>) -> Bool {
        let notYUV = UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_HWACCEL)
        guard descriptor.pointee.flags & notYUV == 0, descriptor.pointee.nb_components >= 3 else { return false }
        return !String(cString: descriptor.pointee.name).hasPrefix("xyz")  // FFmpeg 5.1 has no XYZ flag
    }
}

/// The colour properties of decoded frames, as Imaging's conversion takes them.
enum FrameColor {
    /// The range of a YUV frame: what the frame states (`AVFrame.color_range`), else full for
    /// the `yuvj` formats (as libswscale assumes) and limited ("video") for the others.
    static func range(of frame: UnsafePointer<AVFrame>) -> YUVColorRange {
        switch frame.pointee.color_range {
        case AVCOL_RANGE_JPEG: return .full
        case AVCOL_RANGE_MPEG: return .video
        default:
            switch AVPixelFormat(rawValue: frame.pointee.format) {
            case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P:
                return .full
            default:
                return .video
            }
        }
    }

    /// The matrix of a YUV frame's colour space (`AVFrame.colorspace`): BT.709 → `.bt709`;
    /// BT.470 BG, SMPTE 170M and unspecified → `.bt601`; BT.2020 (non-constant and constant
    /// luminance, as libswscale reads both) → `.bt2020`; SMPTE 240M → `.smpte240m`; FCC →
    /// `.fcc`. The rest (YCgCo, ICtCp, chroma-derived, SMPTE 2085, RGB, reserved values) have no
    /// matrix here and are read as BT.601, libswscale's fallback for them.
    static func matrix(of space: AVColorSpace) -> YUVColorMatrix {
        switch space {
        case AVCOL_SPC_BT709: .bt709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: .bt2020
        case AVCOL_SPC_SMPTE240M: .smpte240m
        case AVCOL_SPC_FCC: .fcc
        default: .bt601
        }
    }
}
