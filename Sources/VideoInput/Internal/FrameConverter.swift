import CFFmpeg
import Imaging
import TasksCommon

/// Turns decoded frames into `PixelImage`s at the frame's own size, keeping YUV as YUV.
///
/// A frame in a format Imaging's sampler reads (see `FrameLayout`) keeps its planes as they
/// are, with the frame's range and colour matrix, and the classifier converts only the pixels
/// it samples. The planes are read in place (`BorrowedPixels`: a new reference to the frame's
/// buffers, `av_frame_clone`, lives as long as the image), or copied (`av_image_copy_plane`)
/// when the frame's buffers are not reference-counted or it is stored bottom-up. yuv420p and
/// yuvj420p frames convert with FFmpeg's default rounding (`YUVRounding.truncatedTerms`), so
/// that their RGB is exactly what `ffmpeg -pix_fmt rgb24` and OpenCV's `VideoCapture` give for
/// the same stream. Other formats are first repacked by libswscale
/// (`sws_getCachedContext`, `sws_setColorspaceDetails`, `sws_scale`): YUV to YUV with the
/// range kept and no matrix change, or RGB-like formats to `rgb24`; never YUV to RGB.
///
/// Owns one `SwsContext` once a frame needed repacking (freed with `sws_freeContext` in
/// `deinit`), rebuilt when a frame's size, format or range changes. Not thread-safe.
final class FrameConverter {
    /// The scaler; +1, owned by this object once created.
    private var context: OpaquePointer?
    /// What `context` was last set up for, to skip redundant set-ups.
    private var configuration: Configuration?

    /// The input properties a scaler is set up for.
    private struct Configuration: Equatable {
        var width: Int32
        var height: Int32
        var format: Int32
        var range: YUVColorRange
    }

    /// Rows written by libswscale are padded to a multiple of this many bytes (aligned SIMD
    /// stores; its functions may also write a little past a row's pixels).
    private static let repackedRowAlignment = 64

    /// Creates a converter; a scaler is made for the first frame that needs one.
    init() {}

    deinit {
        sws_freeContext(context)
    }

    /// The pixels of `frame` (borrowed; unchanged) as a new `PixelImage` that does not depend on
    /// `frame`: its planes read in place through a reference of the image's own, or copied, or
    /// repacked first when the format is not one Imaging reads.
    ///
    /// - Parameters:
    ///   - frame: A decoded video frame.
    ///   - source: The URL or path, the subject of errors.
    /// - Returns: An image of the frame's width and height in the `PixelFormat` its
    ///   `FrameLayout` names, with the frame's range and matrix (`FrameColor`).
    /// - Throws: `TasksError` with `source` as its subject: `invalidArgumentError` when the
    ///   frame's size or pixel format cannot be handled or is over Imaging's limits,
    ///   `internalError` when libswscale fails.
    func pixels(of frame: UnsafePointer<AVFrame>, source: String) throws(TasksError) -> PixelImage {
        let width = frame.pointee.width, height = frame.pointee.height
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard width > 0, height > 0, frame.pointee.format >= 0, let layout = FrameLayout(format) else {
            throw TasksError.invalidArgument(
                "\(FFmpegOperation.convert.failure): the decoder produced a frame of size \(width)x\(height) and pixel format \(Self.name(of: format)).",
                subject: .videoSource(source))
        }
        let range = FrameColor.range(of: frame)
        let matrix = FrameColor.matrix(of: frame.pointee.colorspace)
        do throws(TasksError) {
            switch layout {
            case .kept(let pixelFormat):
                let image = try keep(frame, format: format, as: pixelFormat, range: range, matrix: matrix, source: source)
                return Self.followsFFmpegDefault(format) ? image.withYUVRounding(.truncatedTerms) : image
            case .repacked(let target, let pixelFormat):
                return try repack(frame, to: target, as: pixelFormat, range: range, matrix: matrix, source: source)
            }
        } catch {
            throw error.naming(.videoSource(source))  // `PixelImage`'s size errors have no subject
        }
    }

    /// Whether frames of `format` convert to RGB as `ffmpeg -pix_fmt rgb24` and OpenCV's
    /// `VideoCapture` convert them by default (`YUVRounding.truncatedTerms`): 8-bit planar
    /// 4:2:0, what H.264, HEVC, VP9 and AV1 streams decode to in software. Other layouts keep
    /// libswscale's exact rounding (FFmpeg's default for them takes other paths, interpolating
    /// the chroma).
    static func followsFFmpegDefault(_ format: AVPixelFormat) -> Bool {
        format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P
    }

    /// The planes of `frame` as they are: read in place (`borrow`) or else copied (`copy`).
    private func keep(
        _ frame: UnsafePointer<AVFrame>, format: AVPixelFormat, as pixelFormat: PixelFormat,
        range: YUVColorRange, matrix: YUVColorMatrix, source: String
    ) throws(TasksError) -> PixelImage {
        if let image = try borrow(frame, as: pixelFormat, range: range, matrix: matrix) { return image }
        return try copy(frame, format: format, as: pixelFormat, range: range, matrix: matrix, source: source)
    }

    /// An image that reads the planes of `frame` in place, through a new reference to its
    /// buffers; nil when they are not reference-counted (`buf[0]` is null), a stride is not
    /// positive, or `av_frame_clone` fails (out of memory): the caller copies then.
    ///
    /// - Throws: `TasksError` `invalidArgumentError` from `PixelImage`'s checks (a size over
    ///   Imaging's limits).
    private func borrow(
        _ frame: UnsafePointer<AVFrame>, as pixelFormat: PixelFormat, range: YUVColorRange, matrix: YUVColorMatrix
    ) throws(TasksError) -> PixelImage? {
        let planeCount = Self.planeCount(pixelFormat)
        let (planes, linesizes) = Self.planes(of: frame)
        guard frame.pointee.buf.0 != nil, (0..<planeCount).allSatisfy({ planes[$0] != nil && linesizes[$0] > 0 }),
            let clone = av_frame_clone(frame)
        else { return nil }
        // The clone references the same buffers, so the pointers stay valid while it lives.
        let owner = Frame(adopting: clone)
        let borrowed = (0..<planeCount).map { plane in
            BorrowedPixels.Plane(start: UnsafePointer(planes[plane]!), bytesPerRow: Int(linesizes[plane]))
        }
        return try PixelImage(
            borrowing: BorrowedPixels(planes: borrowed, owner: owner), width: Int(frame.pointee.width),
            height: Int(frame.pointee.height), format: pixelFormat, colorRange: range, colorMatrix: matrix)
    }

    /// Copies the planes of `frame` one after another, each row exactly as long as its pixels
    /// (FFmpeg's rawvideo layout, `av_image_fill_linesizes`; the layout `PixelImage` expects
    /// when `bytesPerRow` is nil).
    private func copy(
        _ frame: UnsafePointer<AVFrame>, format: AVPixelFormat, as pixelFormat: PixelFormat,
        range: YUVColorRange, matrix: YUVColorMatrix, source: String
    ) throws(TasksError) -> PixelImage {
        let width = frame.pointee.width, height = frame.pointee.height
        var rowBytes: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let status = withUnsafeMutableBytes(of: &rowBytes) { buffer in
            av_image_fill_linesizes(buffer.baseAddress!.assumingMemoryBound(to: Int32.self), format, width)
        }
        // The descriptor is static FFmpeg data.
        guard status >= 0, let chromaShift = av_pix_fmt_desc_get(format)?.pointee.log2_chroma_h else {
            throw TasksError.invalidArgument(
                "\(FFmpegOperation.convert.failure): cannot lay out a \(width)x\(height) \(Self.name(of: format)) frame (\(FFmpegError.description(of: status))).",
                subject: .videoSource(source))
        }
        let planeCount = Self.planeCount(pixelFormat)
        let rowBytesOfPlane = [Int(rowBytes.0), Int(rowBytes.1), Int(rowBytes.2)]
        // Chroma planes (1 and 2) have ceil(height / 2^shift) rows, as av_image_fill_pointers says.
        let rows = (0..<planeCount).map { plane in plane == 0 ? Int(height) : Int(-((-height) >> Int32(chromaShift))) }
        let sizes = (0..<planeCount).map { rowBytesOfPlane[$0] * rows[$0] }
        let (planes, linesizes) = Self.planes(of: frame)
        let bytes = [UInt8](unsafeUninitializedCapacity: sizes.reduce(0, +)) { buffer, initializedCount in
            var offset = 0
            for plane in 0..<planeCount {
                // Every byte of the plane is written: `rows` rows of `rowBytes` bytes.
                av_image_copy_plane(
                    buffer.baseAddress! + offset, Int32(rowBytesOfPlane[plane]), planes[plane],
                    linesizes[plane], Int32(rowBytesOfPlane[plane]), Int32(rows[plane]))
                offset += sizes[plane]
            }
            initializedCount = offset
        }
        return try PixelImage(
            bytes: bytes, width: Int(width), height: Int(height), bytesPerRow: nil, format: pixelFormat,
            colorRange: range, colorMatrix: matrix)
    }

    /// Repacks `frame` with libswscale into `target` at the same size, into rows padded to
    /// `repackedRowAlignment` (the chroma rows of `yuv420p` half as long as the luma rows, as
    /// `PixelImage` lays out I420 with a `bytesPerRow`).
    private func repack(
        _ frame: UnsafePointer<AVFrame>, to target: AVPixelFormat, as pixelFormat: PixelFormat,
        range: YUVColorRange, matrix: YUVColorMatrix, source: String
    ) throws(TasksError) -> PixelImage {
        let width = frame.pointee.width, height = frame.pointee.height
        let wanted = Configuration(width: width, height: height, format: frame.pointee.format, range: range)
        if wanted != configuration {
            try configure(wanted, target: target, yuv: pixelFormat.isYUV, source: source)
        }
        var lumaRowBytes: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        _ = withUnsafeMutableBytes(of: &lumaRowBytes) { buffer in
            av_image_fill_linesizes(buffer.baseAddress!.assumingMemoryBound(to: Int32.self), target, width)
        }
        let alignment = Self.repackedRowAlignment
        let stride = (Int(lumaRowBytes.0) + alignment - 1) / alignment * alignment
        let chromaHeight = Int(height / 2 + height % 2)
        let planeLayout: [(stride: Int, rows: Int)] =
            switch pixelFormat {
            case .i420: [(stride, Int(height)), (stride / 2, chromaHeight), (stride / 2, chromaHeight)]
            case .i444: [(stride, Int(height)), (stride, Int(height)), (stride, Int(height))]
            default: [(stride, Int(height))]
            }
        var bytes = [UInt8](repeating: 0, count: planeLayout.map { $0.stride * $0.rows }.reduce(0, +) + alignment)
        let (planes, linesizes) = Self.planes(of: frame)
        let scaledRows = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var destination: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil, nil]
            var destinationStrides: [Int32] = [0, 0, 0, 0]
            var offset = 0
            for (plane, layout) in planeLayout.enumerated() {
                destination[plane] = buffer.baseAddress! + offset
                destinationStrides[plane] = Int32(layout.stride)
                offset += layout.stride * layout.rows
            }
            let sourcePlanes = planes.map { UnsafePointer($0) }
            return sws_scale(context, sourcePlanes, linesizes, 0, height, destination, destinationStrides)
        }
        guard scaledRows == height else {
            throw TasksError.internal(
                "\(FFmpegOperation.convert.failure): sws_scale produced \(scaledRows) of \(height) rows (\(FFmpegError.description(of: scaledRows))).",
                subject: .videoSource(source))
        }
        return try PixelImage(
            bytes: bytes, width: Int(width), height: Int(height), bytesPerRow: stride, format: pixelFormat,
            colorRange: range, colorMatrix: matrix)
    }

    /// Gets a scaler from `wanted` to `target` at the same size (`sws_getCachedContext`) and,
    /// for a YUV target, makes its output range the input's (`sws_getColorspaceDetails`,
    /// `sws_setColorspaceDetails` with the same range and the same table on both sides), so
    /// that the values are repacked, not converted.
    private func configure(_ wanted: Configuration, target: AVPixelFormat, yuv: Bool, source: String) throws(TasksError) {
        let sourceFormat = AVPixelFormat(rawValue: wanted.format)
        let flags = SWS_BILINEAR | SWS_ACCURATE_RND
        // sws_getCachedContext frees `context` when it cannot reuse it.
        context = sws_getCachedContext(
            context, wanted.width, wanted.height, sourceFormat,
            wanted.width, wanted.height, target, flags, nil, nil, nil)
        configuration = nil
        guard let context else {
            throw TasksError.invalidArgument(
                "\(FFmpegOperation.convert.failure): libswscale cannot convert \(wanted.width)x\(wanted.height) \(Self.name(of: sourceFormat)) to \(Self.name(of: target)).",
                subject: .videoSource(source))
        }
        if yuv {
            var inverseTable: UnsafeMutablePointer<Int32>?
            var table: UnsafeMutablePointer<Int32>?
            var sourceRange: Int32 = 0, destinationRange: Int32 = 0
            var brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
            guard
                sws_getColorspaceDetails(
                    context, &inverseTable, &sourceRange, &table, &destinationRange,
                    &brightness, &contrast, &saturation) >= 0
            else {
                throw TasksError.internal(
                    "\(FFmpegOperation.convert.failure): sws_getColorspaceDetails failed.",
                    subject: .videoSource(source))
            }
            // The same table on both sides: a different one would make libswscale convert the
            // matrix through RGB.
            let full: Int32 = wanted.range == .full ? 1 : 0
            guard sws_setColorspaceDetails(context, inverseTable, full, inverseTable, full, brightness, contrast, saturation) >= 0
            else {
                throw TasksError.internal(
                    "\(FFmpegOperation.convert.failure): sws_setColorspaceDetails rejected range \(wanted.range).",
                    subject: .videoSource(source))
            }
        }
        configuration = wanted
    }

    /// The plane pointers and line sizes of `frame` (borrowed; valid until it is unreferenced).
    private static func planes(of frame: UnsafePointer<AVFrame>) -> (planes: [UnsafeMutablePointer<UInt8>?], linesizes: [Int32]) {
        let planes = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)) }
        let linesizes = withUnsafeBytes(of: frame.pointee.linesize) { Array($0.bindMemory(to: Int32.self)) }
        return (planes, linesizes)
    }

    /// The planes a kept frame of `format` contributes.
    private static func planeCount(_ format: PixelFormat) -> Int {
        switch format {
        case .nv12, .nv21: 2
        case .i420, .i444: 3
        case .rgba8, .bgra8, .rgb8, .gray8, .yuyv: 1
        }
    }

    /// FFmpeg's name of a pixel format (`av_get_pix_fmt_name`), or its number.
    private static func name(of format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "#\(format.rawValue)"
    }
}
