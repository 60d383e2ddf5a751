import Foundation
import TasksCommon

/// An immutable image in memory: `height` rows of `bytesPerRow` bytes, each row starting
/// with `width` pixels of `format` (rows may be padded, as with `CVPixelBuffer`).
///
/// The pixels are those stored in the file or buffer; an orientation travels separately
/// (`DecodedImage.exifOrientation`) and is applied by the preprocessing, not here.
package struct PixelImage: Sendable {
    /// Width in pixels (> 0).
    package let width: Int
    /// Height in pixels (> 0).
    package let height: Int
    /// The distance in bytes from one row to the next (>= `width * format.bytesPerPixel`).
    package let bytesPerRow: Int
    /// The layout of each pixel.
    package let format: PixelFormat
    /// The pixel bytes: at least `bytesPerRow * (height - 1) + width * format.bytesPerPixel`.
    package let bytes: [UInt8]

    /// Creates an image that takes over `bytes`, checking the geometry.
    ///
    /// - Parameters:
    ///   - bytes: The pixels, row after row; the last row may omit its padding.
    ///   - width: Pixels per row, > 0.
    ///   - height: Rows, > 0.
    ///   - bytesPerRow: Bytes from one row to the next, >= `width * format.bytesPerPixel`.
    ///   - format: The pixel layout.
    /// - Throws: `TasksError` `invalidArgumentError` naming the bad value when a dimension
    ///   is not positive, `bytesPerRow` is too small, or `bytes` is too short.
    package init(bytes: [UInt8], width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) throws(TasksError) {
        try Self.validate(byteCount: bytes.count, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        self.init(unchecked: bytes, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
    }

    /// Creates an image from a copy of the pixels in `buffer`.
    ///
    /// - Parameters: as `init(bytes:width:height:bytesPerRow:format:)`; only the bytes the
    ///   geometry covers are copied (`bytesPerRow * (height - 1) + width * bytesPerPixel`).
    /// - Throws: `TasksError` `invalidArgumentError` as `init(bytes:...)`.
    package init(copying buffer: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) throws(TasksError) {
        let needed = try Self.validate(byteCount: buffer.count, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        self.init(unchecked: Array(buffer[0..<needed]), width: width, height: height, bytesPerRow: bytesPerRow, format: format)
    }

    /// Creates an image from a copy of the pixels in `data`.
    ///
    /// - Parameters: as `init(copying:width:height:bytesPerRow:format:)`.
    /// - Throws: `TasksError` `invalidArgumentError` as `init(bytes:...)`.
    package init(copying data: Data, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) throws(TasksError) {
        let needed = try Self.validate(byteCount: data.count, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        self.init(unchecked: [UInt8](data.prefix(needed)), width: width, height: height, bytesPerRow: bytesPerRow, format: format)
    }

    /// Creates an image without checks; the caller guarantees the geometry.
    init(unchecked bytes: [UInt8], width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) {
        self.bytes = bytes
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.format = format
    }

    /// Checks a geometry and returns the bytes it covers.
    @discardableResult
    static func validate(byteCount: Int, width: Int, height: Int, bytesPerRow: Int, format: PixelFormat) throws(TasksError) -> Int {
        guard width > 0, height > 0 else {
            throw TasksError.invalidArgument("Invalid image size \(width)x\(height): width and height must be > 0.")
        }
        let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: format.bytesPerPixel)
        guard !rowOverflow, bytesPerRow >= rowBytes else {
            throw TasksError.invalidArgument(
                "Invalid bytesPerRow \(bytesPerRow): must be at least width \(width) x \(format.bytesPerPixel) bytes per pixel of \(format).")
        }
        let (padded, paddedOverflow) = bytesPerRow.multipliedReportingOverflow(by: height - 1)
        let (needed, neededOverflow) = padded.addingReportingOverflow(rowBytes)
        guard !paddedOverflow, !neededOverflow, byteCount >= needed else {
            throw TasksError.invalidArgument(
                "Pixel buffer too small: \(byteCount) bytes, but \(width)x\(height) \(format) with bytesPerRow \(bytesPerRow) needs \(paddedOverflow || neededOverflow ? "more than Int.max" : String(needed)).")
        }
        return needed
    }

    /// The red, green, blue and alpha of the pixel at column `x`, row `y` (gray repeats the
    /// luminance; formats without alpha report 255).
    ///
    /// - Precondition: `0 <= x < width`, `0 <= y < height`.
    package func rgba(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        let offset = y * bytesPerRow + x * format.bytesPerPixel
        switch format {
        case .rgba8: return (bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3])
        case .bgra8: return (bytes[offset + 2], bytes[offset + 1], bytes[offset], bytes[offset + 3])
        case .rgb8: return (bytes[offset], bytes[offset + 1], bytes[offset + 2], 255)
        case .gray8: return (bytes[offset], bytes[offset], bytes[offset], 255)
        }
    }
}
