import CFFmpeg
import Imaging
import TasksCommon

/// Converts decoded frames of any pixel format to `.rgb8` `PixelImage`s with libswscale,
/// at the frame's own size.
///
/// Owns one `SwsContext` (`sws_getCachedContext`, freed with `sws_freeContext` in
/// `deinit`), rebuilt when a frame's size or format changes. The YUV matrix (BT.601, BT.709,
/// SMPTE 240M, FCC, BT.2020) and the range (limited "MPEG" or full "JPEG") are taken from the
/// frame when the stream states them (`sws_setColorspaceDetails`); otherwise libswscale's
/// defaults apply (BT.601; limited range, full for the `yuvj` formats). Chroma is
/// interpolated (`SWS_FULL_CHR_H_INT`, `SWS_ACCURATE_RND`). Not thread-safe.
final class RGBConverter {
    /// The scaler; +1, owned by this object once created.
    private var context: OpaquePointer?
    /// What `context` was last set up for, to skip redundant set-ups.
    private var configuration: Configuration?

    /// The input properties a scaler is set up for.
    private struct Configuration: Equatable {
        var width: Int32
        var height: Int32
        var format: Int32
        var colorSpace: AVColorSpace
        var colorRange: AVColorRange
    }

    /// Rows of the output are padded to a multiple of this many bytes (SIMD-friendly stores).
    private static let rowAlignment = 32

    /// Creates a converter; the scaler is made for the first frame.
    init() {}

    deinit {
        sws_freeContext(context)
    }

    /// Converts `frame` (borrowed) to RGB, copying its pixels into a new `PixelImage` whose
    /// rows are padded to a multiple of 32 bytes.
    ///
    /// - Parameters:
    ///   - frame: A decoded video frame.
    ///   - source: The URL or path, for error messages.
    /// - Returns: A `.rgb8` image of the frame's width and height.
    /// - Throws: `TasksError` `invalidArgumentError` when the frame's size or pixel format
    ///   cannot be converted, `internalError` when libswscale fails.
    func convert(_ frame: UnsafePointer<AVFrame>, source: String) throws(TasksError) -> PixelImage {
        let width = frame.pointee.width
        let height = frame.pointee.height
        let format = frame.pointee.format
        guard width > 0, height > 0, format >= 0 else {
            throw TasksError.invalidArgument("Failed to convert a frame to RGB of video source '\(source)': the decoder produced a frame of size \(width)x\(height) and pixel format \(format).")
        }
        let wanted = Configuration(width: width, height: height, format: format,
                                   colorSpace: frame.pointee.colorspace, colorRange: frame.pointee.color_range)
        if wanted != configuration {
            try configure(wanted, source: source)
        }

        let bytesPerRow = (Int(width) * 3 + Self.rowAlignment - 1) / Self.rowAlignment * Self.rowAlignment
        let byteCount = bytesPerRow * Int(height)
        var scaledRows: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initializedCount in
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.baseAddress, nil, nil, nil]
            var destinationStride: [Int32] = [Int32(bytesPerRow), 0, 0, 0]
            scaledRows = withUnsafePointer(to: frame.pointee.data) { planes in
                withUnsafePointer(to: frame.pointee.linesize) { strides in
                    planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                        strides.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { strides in
                            sws_scale(context, planes, strides, 0, height, &destination, &destinationStride)
                        }
                    }
                }
            }
            // Every byte is initialized: rows by sws_scale, padding here (or all of it on failure).
            if scaledRows == height {
                for row in 0..<Int(height) {
                    let padding = row * bytesPerRow + Int(width) * 3..<(row + 1) * bytesPerRow
                    buffer[padding].initialize(repeating: 0)
                }
            } else {
                buffer.initialize(repeating: 0)
            }
            initializedCount = byteCount
        }
        guard scaledRows == height else {
            throw TasksError.internal("Failed to convert a frame to RGB of video source '\(source)': sws_scale produced \(scaledRows) of \(height) rows (\(FFmpegError.description(of: scaledRows))).")
        }
        return try PixelImage(bytes: bytes, width: Int(width), height: Int(height), bytesPerRow: bytesPerRow, format: .rgb8)
    }

    /// Gets a scaler for `wanted` (`sws_getCachedContext`) and applies the frame's colour
    /// space and range when it states them (`sws_getColorspaceDetails`,
    /// `sws_setColorspaceDetails`).
    private func configure(_ wanted: Configuration, source: String) throws(TasksError) {
        let sourceFormat = AVPixelFormat(rawValue: wanted.format)
        let flags = SWS_BILINEAR | SWS_FULL_CHR_H_INT | SWS_ACCURATE_RND
        // sws_getCachedContext frees `context` when it cannot reuse it.
        context = sws_getCachedContext(context, wanted.width, wanted.height, sourceFormat,
                                       wanted.width, wanted.height, AV_PIX_FMT_RGB24, flags, nil, nil, nil)
        configuration = nil
        guard let context else {
            let name = av_get_pix_fmt_name(sourceFormat).map { String(cString: $0) } ?? "#\(wanted.format)"
            throw TasksError.invalidArgument("Failed to convert a frame to RGB of video source '\(source)': libswscale cannot convert \(wanted.width)x\(wanted.height) \(name) to rgb24.")
        }
        if let descriptor = av_pix_fmt_desc_get(sourceFormat),
           descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) == 0 {
            var inverseTable: UnsafeMutablePointer<Int32>?
            var table: UnsafeMutablePointer<Int32>?
            var sourceRange: Int32 = 0, destinationRange: Int32 = 0
            var brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
            guard sws_getColorspaceDetails(context, &inverseTable, &sourceRange, &table, &destinationRange,
                                           &brightness, &contrast, &saturation) >= 0 else {
                throw TasksError.internal("Failed to convert a frame to RGB of video source '\(source)': sws_getColorspaceDetails failed.")
            }
            let coefficients = Self.swscaleColorSpace(wanted.colorSpace).map { sws_getCoefficients($0) } ?? UnsafePointer(inverseTable)
            switch wanted.colorRange {
            case AVCOL_RANGE_JPEG: sourceRange = 1
            case AVCOL_RANGE_MPEG: sourceRange = 0
            default: break  // unspecified: keep libswscale's choice for the format
            }
            guard sws_setColorspaceDetails(context, coefficients, sourceRange, table, destinationRange,
                                           brightness, contrast, saturation) >= 0 else {
                throw TasksError.internal("Failed to convert a frame to RGB of video source '\(source)': sws_setColorspaceDetails rejected colour space \(wanted.colorSpace.rawValue), range \(wanted.colorRange.rawValue).")
            }
        }
        configuration = wanted
    }

    /// The `SWS_CS_*` matrix of a stated colour space, or nil when unspecified or not a YUV matrix
    /// libswscale knows.
    private static func swscaleColorSpace(_ space: AVColorSpace) -> Int32? {
        switch space {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_FCC: SWS_CS_FCC
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        default: nil
        }
    }
}
