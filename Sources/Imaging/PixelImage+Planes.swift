import Foundation
import TasksCommon

extension PixelImage {
    /// Creates an image from copies of separate planes (a `CVPixelBuffer`'s or an Android
    /// `Image`'s), checking each.
    ///
    /// - Parameters:
    ///   - planes: One plane per `format.planeNames` entry, in that order: 2 for NV12 and NV21
    ///     (Y, then the chroma pairs), 3 for I420 and I444 (Y, U, V), 1 otherwise. Only the bytes
    ///     each plane's geometry covers are copied.
    ///   - width: Pixels per row, > 0.
    ///   - height: Rows, > 0.
    ///   - format: The pixel layout.
    ///   - colorRange: The range of YUV values; ignored for the RGB and gray formats.
    ///   - colorMatrix: The matrix of YUV values; ignored for the RGB and gray formats.
    /// - Throws: `TasksError` `invalidArgumentError` for a size that is not positive or over the
    ///   limits (`checkSize`), a plane count that does not match the format, or a plane whose `bytesPerRow` or byte count is
    ///   too small, naming the plane and the values.
    package init(
        copying planes: [PixelPlane], width: Int, height: Int, format: PixelFormat,
        colorRange: YUVColorRange = .video, colorMatrix: YUVColorMatrix = .bt601
    ) throws(TasksError) {
        let sizes = try Self.planeSizes(
            planes.map { ($0.bytesPerRow, $0.bytes.count) }, width: width, height: height, format: format)
        var bytes: [UInt8] = []
        var layouts: [PlaneLayout] = []
        for (plane, size) in zip(planes, sizes) {
            layouts.append(PlaneLayout(offset: bytes.count, bytesPerRow: plane.bytesPerRow))
            bytes.append(contentsOf: plane.bytes.prefix(size.covered))
        }
        self.init(
            unchecked: bytes, width: width, height: height, format: format, colorRange: colorRange,
            colorMatrix: colorMatrix, planes: layouts)
    }

    /// Checks separate planes, given as (stride, byte count or nil when unknown), against the
    /// planes of a `width` x `height` image of `format`; returns the bytes each covers
    /// (`stride * (rows - 1) + rowBytes`) and takes with its last row padded (`stride * rows`).
    ///
    /// - Throws: `TasksError` `invalidArgumentError` as `init(copying:...)` says.
    static func planeSizes(
        _ planes: [(bytesPerRow: Int, byteCount: Int?)], width: Int, height: Int, format: PixelFormat
    ) throws(TasksError) -> [(covered: Int, padded: Int)] {
        let shapes = try Self.shapes(width: width, height: height, format: format)
        guard planes.count == shapes.count else {
            throw .invalidArgument(
                "Invalid plane count for \(format): expected \(shapes.count) (\(shapes.map(\.name).joined(separator: ", "))), got \(planes.count)."
            )
        }
        var sizes: [(covered: Int, padded: Int)] = []
        for (index, (plane, shape)) in zip(planes, shapes).enumerated() {
            let description = "plane \(index) (\(shape.name)) of \(width)x\(height) \(format)"
            try Self.check(stride: plane.bytesPerRow, of: shape, description)
            let needed = try Self.coveredBytes(stride: plane.bytesPerRow, shape: shape, description)
            if let count = plane.byteCount, count < needed {
                throw .invalidArgument(
                    "Pixel buffer too small: \(description) has \(count) bytes, but \(shape.rows) rows (\(shape.rowsRule)) of \(shape.rowBytes) bytes with bytesPerRow \(plane.bytesPerRow) need \(needed)."
                )
            }
            // No overflow: `needed` did not overflow, and the padding is less than a stride.
            sizes.append((needed, needed + plane.bytesPerRow - shape.rowBytes))
        }
        return sizes
    }

    /// Checks the geometry of an image held in one buffer and returns where its planes lie and
    /// how many bytes it covers.
    ///
    /// The planes follow one another: each but the last takes `rows x stride` bytes, the last
    /// may omit the padding of its last row. With `bytesPerRow` given, the Y plane (or the only
    /// plane) has that stride, NV12/NV21's chroma plane and I444's U and V planes the same, and
    /// I420's U and V planes `ceil(bytesPerRow / 2)`. With nil, every plane's rows are exactly as long as its pixels
    /// (FFmpeg's rawvideo layout: `av_image_fill_arrays` with alignment 1).
    ///
    /// - Throws: `TasksError` `invalidArgumentError` for a size that is not positive or over the
    ///   limits (`checkSize`), a stride too small for a plane (naming it), or too few bytes.
    static func contiguousLayout(
        byteCount: Int, width: Int, height: Int, bytesPerRow: Int?,
        format: PixelFormat
    ) throws(TasksError) -> (planes: [PlaneLayout], byteCount: Int) {
        try checkSize(width: width, height: height)
        guard format.isYUV else {
            // The RGB and gray formats keep their original checks and messages.
            let (rowBytes, overflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
            if bytesPerRow == nil && overflow {
                throw .invalidArgument("Invalid image size \(width)x\(height): a row of \(format) needs more than Int.max bytes.")
            }
            let stride = bytesPerRow ?? rowBytes
            let needed = try validate(byteCount: byteCount, width: width, height: height, bytesPerRow: stride, format: format)
            try checkExactLength(
                byteCount, needed: needed, width: width, height: height, format: format, bytesPerRow: bytesPerRow)
            return ([PlaneLayout(offset: 0, bytesPerRow: stride)], needed)
        }
        let shapes = try shapes(width: width, height: height, format: format)
        var layouts: [PlaneLayout] = []
        var offset = 0, end = 0
        for (index, shape) in shapes.enumerated() {
            let stride: Int
            let strideRule: String
            switch (bytesPerRow, index) {
            case (nil, _):
                (stride, strideRule) = (shape.rowBytes, "")
            case let (given?, 0):
                (stride, strideRule) = (given, "")
            case let (given?, _) where format == .i420:
                (stride, strideRule) = (given / 2 + given % 2, " (ceil(bytesPerRow \(given) / 2) for I420's chroma)")
            case let (given?, _):
                (stride, strideRule) = (given, " (the Y plane's bytesPerRow)")
            }
            let description = "plane \(index) (\(shape.name)) of \(width)x\(height) \(format)"
            try check(stride: stride, of: shape, description + strideRule)
            let covered = try coveredBytes(stride: stride, shape: shape, description)
            layouts.append(PlaneLayout(offset: offset, bytesPerRow: stride))
            let (planeEnd, endOverflow) = offset.addingReportingOverflow(covered)
            let (full, fullOverflow) = stride.multipliedReportingOverflow(by: shape.rows)
            let (next, nextOverflow) = offset.addingReportingOverflow(full)
            guard !endOverflow, !fullOverflow, !nextOverflow else {
                throw .invalidArgument(
                    "Pixel buffer too small: \(byteCount) bytes, but \(width)x\(height) \(format) needs more than Int.max.")
            }
            (end, offset) = (planeEnd, next)
        }
        guard byteCount >= end else {
            let planes = zip(shapes, layouts).map {
                "\($0.name) at offset \($1.offset), \($0.rows) rows with bytesPerRow \($1.bytesPerRow)"
            }
            throw .invalidArgument(
                "Pixel buffer too small: \(byteCount) bytes, but \(width)x\(height) \(format)\(bytesPerRow.map { " with bytesPerRow \($0)" } ?? "") needs \(end) (\(planes.joined(separator: "; ")); the last row may omit its padding)."
            )
        }
        try checkExactLength(byteCount, needed: end, width: width, height: height, format: format, bytesPerRow: bytesPerRow)
        return (layouts, end)
    }

    /// Without a stride the rows are packed, so the buffer must be exactly the pixels: a longer
    /// one means the layout is not what the caller said (RGBA bytes described as RGB8, say).
    private static func checkExactLength(
        _ byteCount: Int, needed: Int, width: Int, height: Int, format: PixelFormat,
        bytesPerRow: Int?
    ) throws(TasksError) {
        guard bytesPerRow == nil, byteCount != needed else { return }
        throw .invalidArgument(
            "Pixel buffer has \(byteCount) bytes, but \(width)x\(height) \(format) without bytesPerRow "
                + "is exactly \(needed) bytes; give bytesPerRow for padded rows, or check the format.")
    }

    /// The plane shapes of a `width` x `height` image, checking the size (`checkSize`).
    private static func shapes(width: Int, height: Int, format: PixelFormat) throws(TasksError) -> [PlaneShape] {
        try checkSize(width: width, height: height)
        return try format.planeShapes(width: width, height: height)
    }

    /// Checks that both sides are positive and the size is within the decoders' limits
    /// (`ImageDecoder.maxSideLength` per side, `ImageDecoder.maxPixelCount` in all), so
    /// that the preprocessing samples every raw buffer exactly.
    ///
    /// - Throws: `TasksError` `invalidArgumentError` "Invalid image size WxH: ..." naming the
    ///   limit.
    static func checkSize(width: Int, height: Int) throws(TasksError) {
        guard width > 0, height > 0 else {
            throw .invalidArgument("Invalid image size \(width)x\(height): width and height must be > 0.")
        }
        if let reason = ImageDecoder.sizeLimitViolation(width: width, height: height) {
            throw .invalidArgument("Invalid image size \(width)x\(height): \(reason).")
        }
    }

    /// Checks that `stride` holds a row of the plane.
    private static func check(stride: Int, of shape: PlaneShape, _ description: String) throws(TasksError) {
        guard stride >= shape.rowBytes else {
            throw .invalidArgument(
                "Invalid bytesPerRow \(stride) of \(description): must be at least \(shape.rowBytesRule) = \(shape.rowBytes).")
        }
    }

    /// The bytes a plane covers when its last row omits its padding: `stride * (rows - 1) + rowBytes`.
    private static func coveredBytes(stride: Int, shape: PlaneShape, _ description: String) throws(TasksError) -> Int {
        let (padded, paddedOverflow) = stride.multipliedReportingOverflow(by: shape.rows - 1)
        let (needed, neededOverflow) = padded.addingReportingOverflow(shape.rowBytes)
        guard !paddedOverflow, !neededOverflow else {
            throw .invalidArgument(
                "Pixel buffer too small: \(description) with bytesPerRow \(stride) needs more than Int.max bytes.")
        }
        return needed
    }
}
