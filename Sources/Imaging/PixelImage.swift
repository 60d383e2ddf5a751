import Foundation
import TasksCommon

/// An immutable image in memory: `height` rows of `bytesPerRow` bytes, each row starting
/// with `width` pixels of `format` (rows may be padded, as with `CVPixelBuffer`). A YUV image
/// holds its planes one after another in `bytes`, each with its own stride. Pixels in memory
/// another library owns (a decoded video frame's) are read in place: see `BorrowedPixels`.
///
/// The pixels are those stored in the file or buffer; an orientation travels separately
/// (`DecodedImage.exifOrientation`) and is applied by the preprocessing, not here. YUV pixels
/// stay YUV: the preprocessing converts the pixels it samples.
package struct PixelImage: Sendable {
    /// Width in pixels (> 0).
    package let width: Int
    /// Height in pixels (> 0).
    package let height: Int
    /// The distance in bytes from one row to the next (>= `width * format.bytesPerPixel`); for
    /// a YUV format, that of the first plane.
    package let bytesPerRow: Int
    /// The layout of each pixel.
    package let format: PixelFormat
    /// Where the pixels are: in an array of this image's, or borrowed.
    let storage: PixelStorage
    /// The range of the Y, U and V values (only used by the YUV formats).
    package let colorRange: YUVColorRange
    /// The matrix that converts the Y, U and V values to RGB (only used by the YUV formats).
    package let colorMatrix: YUVColorMatrix
    /// Where each plane lies in `bytes` (and its stride): one plane at offset 0 for the RGB and
    /// gray formats and YUYV, two for NV12 and NV21, three for I420 and I444.
    let planes: [PlaneLayout]
    /// How the YUV-to-RGB sums are rounded (only used by the YUV formats); `.roundedSum`
    /// unless `withYUVRounding(_:)` says otherwise.
    package private(set) var yuvRounding = YUVRounding.roundedSum

    /// The same image with its YUV values converted with `rounding` (video frames follow
    /// FFmpeg's default conversion: see `YUVRounding.truncatedTerms`).
    package func withYUVRounding(_ rounding: YUVRounding) -> PixelImage {
        var image = self
        image.yuvRounding = rounding
        return image
    }

    /// Creates an image that takes over `bytes`, checking the geometry.
    ///
    /// - Parameters:
    ///   - bytes: The pixels, row after row; the last row may omit its padding. For a YUV
    ///     format, the planes one after another (see `contiguousLayout`).
    ///   - width: Pixels per row, > 0.
    ///   - height: Rows, > 0.
    ///   - bytesPerRow: Bytes from one row to the next, >= `width * format.bytesPerPixel`; nil
    ///     for rows without padding.
    ///   - format: The pixel layout.
    ///   - colorRange: The range of YUV values; ignored for the RGB and gray formats.
    ///   - colorMatrix: The matrix of YUV values; ignored for the RGB and gray formats.
    /// - Throws: `TasksError` `invalidArgumentError` naming the bad value when a dimension
    ///   is not positive, a side is over `ImageDecoder.maxSideLength` or the image over
    ///   `ImageDecoder.maxPixelCount`, `bytesPerRow` is too small, or `bytes` is too short.
    package init(
        bytes: [UInt8], width: Int, height: Int, bytesPerRow: Int?, format: PixelFormat,
        colorRange: YUVColorRange = .video, colorMatrix: YUVColorMatrix = .bt601
    ) throws(TasksError) {
        let layout = try Self.contiguousLayout(
            byteCount: bytes.count, width: width, height: height,
            bytesPerRow: bytesPerRow, format: format)
        self.init(
            unchecked: bytes, width: width, height: height, format: format, colorRange: colorRange,
            colorMatrix: colorMatrix, planes: layout.planes)
    }

    /// Creates an image from a copy of the pixels in `buffer`.
    ///
    /// - Parameters: as `init(bytes:width:height:bytesPerRow:format:colorRange:colorMatrix:)`;
    ///   only the bytes the geometry covers are copied (for RGB and gray,
    ///   `bytesPerRow * (height - 1) + width * bytesPerPixel`).
    /// - Throws: `TasksError` `invalidArgumentError` as `init(bytes:...)`.
    package init(
        copying buffer: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int?, format: PixelFormat,
        colorRange: YUVColorRange = .video, colorMatrix: YUVColorMatrix = .bt601
    ) throws(TasksError) {
        let layout = try Self.contiguousLayout(
            byteCount: buffer.count, width: width, height: height,
            bytesPerRow: bytesPerRow, format: format)
        self.init(
            unchecked: Array(buffer[0..<layout.byteCount]), width: width, height: height, format: format,
            colorRange: colorRange, colorMatrix: colorMatrix, planes: layout.planes)
    }

    /// Creates an image from a copy of the pixels in `data`.
    ///
    /// - Parameters: as `init(copying:width:height:bytesPerRow:format:colorRange:colorMatrix:)`.
    /// - Throws: `TasksError` `invalidArgumentError` as `init(bytes:...)`.
    package init(
        copying data: Data, width: Int, height: Int, bytesPerRow: Int?, format: PixelFormat,
        colorRange: YUVColorRange = .video, colorMatrix: YUVColorMatrix = .bt601
    ) throws(TasksError) {
        let layout = try Self.contiguousLayout(
            byteCount: data.count, width: width, height: height,
            bytesPerRow: bytesPerRow, format: format)
        self.init(
            unchecked: [UInt8](data.prefix(layout.byteCount)), width: width, height: height, format: format,
            colorRange: colorRange, colorMatrix: colorMatrix, planes: layout.planes)
    }

    /// Creates an RGB or gray image without checks; the caller guarantees the geometry.
    init(unchecked bytes: [UInt8], width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) {
        self.init(
            unchecked: bytes, width: width, height: height, format: format, colorRange: .video,
            colorMatrix: .bt601, planes: [PlaneLayout(offset: 0, bytesPerRow: bytesPerRow)])
    }

    /// Creates an image of any format without checks; the caller guarantees the planes.
    init(
        unchecked bytes: [UInt8], width: Int, height: Int, format: PixelFormat, colorRange: YUVColorRange,
        colorMatrix: YUVColorMatrix, planes: [PlaneLayout]
    ) {
        self.init(
            storage: .owned(bytes), width: width, height: height, format: format, colorRange: colorRange,
            colorMatrix: colorMatrix, planes: planes)
    }

    /// Creates an image of any format and storage without checks; the caller guarantees the planes.
    init(
        storage: PixelStorage, width: Int, height: Int, format: PixelFormat, colorRange: YUVColorRange,
        colorMatrix: YUVColorMatrix, planes: [PlaneLayout]
    ) {
        self.storage = storage
        self.width = width
        self.height = height
        self.bytesPerRow = planes[0].bytesPerRow
        self.format = format
        self.colorRange = colorRange
        self.colorMatrix = colorMatrix
        self.planes = planes
    }

    /// Checks the geometry of a packed RGB or gray image and returns the bytes it covers.
    @discardableResult
    static func validate(byteCount: Int, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) throws(TasksError) -> Int
    {
        guard width > 0, height > 0 else {
            throw TasksError.invalidArgument("Invalid image size \(width)x\(height): width and height must be > 0.")
        }
        let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard !rowOverflow, bytesPerRow >= rowBytes else {
            throw TasksError.invalidArgument(
                "Invalid bytesPerRow \(bytesPerRow): must be at least width \(width) x \(format.bytesPerPixel) bytes per pixel of \(format)."
            )
        }
        let (padded, paddedOverflow) = bytesPerRow.multipliedReportingOverflow(by: height - 1)
        let (needed, neededOverflow) = padded.addingReportingOverflow(rowBytes)
        guard !paddedOverflow, !neededOverflow, byteCount >= needed else {
            throw TasksError.invalidArgument(
                "Pixel buffer too small: \(byteCount) bytes, but \(width)x\(height) \(format) with bytesPerRow \(bytesPerRow) needs \(paddedOverflow || neededOverflow ? "more than Int.max" : String(needed))."
            )
        }
        return needed
    }

    /// The red, green, blue and alpha of the pixel at column `x`, row `y` (gray repeats the
    /// luminance; YUV is converted as the preprocessing converts it; formats without alpha
    /// report 255).
    ///
    /// - Precondition: `0 <= x < width`, `0 <= y < height`.
    package func rgba(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        guard !format.isYUV else {
            let rgb = withPixelSource(PixelReader(x: x, y: y))
            return (UInt8(rgb.red), UInt8(rgb.green), UInt8(rgb.blue), 255)
        }
        return withPlaneStarts { starts in
            let pixel = starts[0] + y * bytesPerRow + x * format.bytesPerPixel
            switch format {
            case .rgba8: return (pixel[0], pixel[1], pixel[2], pixel[3])
            case .bgra8: return (pixel[2], pixel[1], pixel[0], pixel[3])
            case .rgb8: return (pixel[0], pixel[1], pixel[2], 255)
            default: return (pixel[0], pixel[0], pixel[0], 255)  // gray8
            }
        }
    }
}

/// Reads one pixel through a `PixelSource`.
private struct PixelReader: PixelSourceVisitor {
    let x: Int, y: Int

    func visit<Source: PixelSource>(_ source: Source) -> (red: Int32, green: Int32, blue: Int32) {
        source.rgb(source.row(y), source.column(x))
    }
}
