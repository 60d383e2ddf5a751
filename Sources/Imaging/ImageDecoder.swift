import Foundation
import TasksCommon

/// Decodes JPEG, PNG and WebP files into `PixelImage`s, reading the EXIF orientation.
///
/// - JPEG (libjpeg-turbo, baseline and progressive): gray files give `.gray8`, colour
///   files `.rgb8`; CMYK and YCCK are converted to `.rgb8`.
/// - PNG (libpng): palette, gray (1-16 bits), gray+alpha, RGB, RGBA, interlaced;
///   16-bit samples are scaled (not truncated) to 8 bits; a tRNS chunk becomes alpha.
///   Output `.gray8`, `.rgb8` or `.rgba8`. Gamma and colour profiles are ignored.
/// - WebP (libwebp, lossy and lossless, not animated): `.rgba8` with alpha, else `.rgb8`.
///
/// The format is recognized from the first bytes, not the file name. Images whose header
/// claims more than `maxPixelCount` pixels are rejected before any pixel memory is allocated.
package enum ImageDecoder {
    /// The largest image accepted, in pixels (width x height): 100 megapixels, which
    /// decodes to at most 400 MB.
    package static let maxPixelCount = 100_000_000

    /// Decodes an image file.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The pixels and the EXIF orientation.
    /// - Throws: `TasksError` `notFoundError` when no file exists at the path;
    ///   `invalidArgumentError` when the path is a directory or cannot be read, and as
    ///   `decode(_:source:)` for the contents. Messages name the path.
    package static func decode(contentsOf url: URL) throws(TasksError) -> DecodedImage {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TasksError.notFound("Image file not found: '\(path)'.")
        }
        guard !isDirectory.boolValue else {
            throw TasksError.invalidArgument("Expected an image file, but '\(path)' is a directory.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error {
            throw TasksError.invalidArgument("Failed to read image file '\(path)': \(error.localizedDescription)")
        }
        return try decode(data, source: path)
    }

    /// Decodes the bytes of an image file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - source: What to call the image in error messages (a path or a description).
    /// - Returns: The pixels and the EXIF orientation (`.up` when absent or invalid).
    /// - Throws: `TasksError` `invalidArgumentError` "Failed to decode image '<source>':
    ///   <reason>" for empty, unrecognized, corrupt or truncated data, and "Image
    ///   '<source>' is too large: ..." naming the dimensions for more than `maxPixelCount`
    ///   pixels.
    package static func decode(_ data: Data, source: String) throws(TasksError) -> DecodedImage {
        guard !data.isEmpty else {
            throw decodingError(source, "the data is empty")
        }
        let bytes = [UInt8](data)
        guard let container = ImageContainer(sniffing: bytes) else {
            let prefix = bytes.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
            throw decodingError(source, "unrecognized format (not JPEG, PNG or WebP; first bytes \(prefix))")
        }
        let pixels: PixelImage
        switch container {
        case .jpeg: pixels = try JPEGCodec.decode(bytes, source: source)
        case .png: pixels = try PNGCodec.decode(bytes, source: source)
        case .webp: pixels = try WebPCodec.decode(bytes, source: source)
        }
        let orientation = ExifReader.orientation(in: bytes, container: container) ?? .up
        return DecodedImage(pixels: pixels, exifOrientation: orientation)
    }

    /// The error for undecodable data.
    static func decodingError(_ source: String, _ reason: String) -> TasksError {
        TasksError.invalidArgument("Failed to decode image '\(source)': \(reason)")
    }

    /// Rejects zero dimensions and images above `maxPixelCount`, before allocation.
    static func checkDimensions(width: Int, height: Int, source: String) throws(TasksError) {
        guard width > 0, height > 0 else {
            throw decodingError(source, "the header gives an empty size \(width)x\(height)")
        }
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixelCount <= maxPixelCount else {
            throw TasksError.invalidArgument(
                "Image '\(source)' is too large: \(width)x\(height) pixels is more than the limit of \(maxPixelCount) pixels.")
        }
    }
}
