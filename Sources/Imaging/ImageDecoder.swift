import FileSystem
import Foundation
import TasksCommon

/// Decodes JPEG, PNG and WebP files into `PixelImage`s, reading the EXIF orientation.
///
/// - JPEG (libjpeg-turbo, baseline and progressive): gray files give `.gray8`, colour
///   files `.rgb8`; CMYK and YCCK are converted to `.rgb8`.
/// - PNG (libpng): palette, gray (1-16 bits), gray+alpha, RGB, RGBA, interlaced;
///   16-bit samples keep their high byte (as MediaPipe's stb_image loader and Pillow do);
///   a tRNS chunk becomes alpha.
///   Output `.gray8`, `.rgb8` or `.rgba8`. Gamma and colour profiles are ignored.
/// - WebP (libwebp, lossy and lossless, not animated): `.rgba8` with alpha, else `.rgb8`.
///
/// The format is recognized from the first bytes, not the file name.
///
/// Limits (each refused with a `TasksError` naming the file and the value):
/// - `maxFileSize`: files larger than 256 MiB are refused from their size, before reading.
/// - `maxPixelCount`: images whose header claims more than 100 megapixels are refused before
///   any pixel memory is allocated (decoded pixels take at most 400 MB).
/// - `maxSideLength`: a width or height above 2^26 pixels is refused (raw buffers too): the
///   preprocessing holds positions in 1/32 pixel in 32 bits. PNG sides are further limited to
///   1,000,000 pixels (libpng's limit, which bounds its row buffers).
/// - `maxJPEGDecoderMemory`: libjpeg may use at most 512 MiB besides the decoded pixels. Only
///   multi-scan (progressive) JPEGs need much: their DCT coefficients for the whole image, 2
///   bytes per pixel and component (less with chroma subsampling), so a 4:2:0 colour image
///   fits up to the pixel limit, a 4:4:4 one up to 89 megapixels and a CMYK one up to 67.
///   Beyond, decoding fails with `resourceExhaustedError`.
package enum ImageDecoder {
    /// The largest image accepted, in pixels (width x height): 100 megapixels, which
    /// decodes to at most 400 MB. Raw pixel buffers are held to it too.
    package static let maxPixelCount = 100_000_000

    /// The largest width or height accepted, in pixels: 2^26 = 67,108,864. The preprocessing
    /// keeps source positions in 1/32 pixel in 32-bit integers (OpenCV's arithmetic), exact up
    /// to this size. Raw pixel buffers are held to it too.
    package static let maxSideLength = 1 << 26

    /// The largest image file read, in bytes: 256 MiB (`FileKind.image`). Larger files are
    /// refused from their size before any byte is read.
    package static var maxFileSize: Int { FileKind.image.maximumByteCount }

    /// The memory libjpeg may allocate while decoding, in bytes (its `max_memory_to_use`):
    /// 512 MiB, beside the decoded pixels.
    package static let maxJPEGDecoderMemory = 512 << 20

    /// Decodes an image file.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: The pixels and the EXIF orientation.
    /// - Throws: `TasksError` `invalidArgumentError` "Failed to read image: only file URLs are
    ///   supported" for another URL (the URL as subject); as `FileReader.contents(of:as:)` for
    ///   reading (limit `maxFileSize`); and as `decode(_:source:)` for the contents. The file
    ///   is the subject of every error.
    package static func decode(contentsOf url: URL, reduced: ReducedDecoding? = nil) throws(TasksError) -> DecodedImage {
        guard url.isFileURL else {
            throw TasksError.invalidArgument(
                "Failed to read image: only file URLs are supported.",
                subject: .file(url.absoluteString))
        }
        return try decode(file: FileSystemPath(url.path), reduced: reduced)
    }

    /// Decodes the image file at `path`, whose bytes need not be UTF-8; `reduced` opts in to
    /// fast decoding at a reduced size (see `ReducedDecoding`).
    /// - Throws: as `decode(contentsOf:)`.
    package static func decode(file path: FileSystemPath, reduced: ReducedDecoding? = nil) throws(TasksError) -> DecodedImage {
        let bytes = try FileReader.contents(of: path, as: .image)
        return try bytes.withUnsafeBufferPointer { buffer throws(TasksError) in
            try decode(buffer, source: .file(path.description), reduced: reduced)
        }
    }

    /// Decodes the bytes of an image file.
    ///
    /// - Parameters:
    ///   - data: The whole file (read in place, not copied).
    ///   - source: What to call the bytes in error messages (the errors' `.buffer` subject).
    /// - Returns: The pixels and the EXIF orientation (`.up` when absent or invalid).
    /// - Throws: `TasksError` `invalidArgumentError` "Failed to decode image: <reason>" for
    ///   empty, unrecognized, corrupt or truncated data, and "The image is too large: ..."
    ///   naming the dimensions for more than `maxPixelCount` pixels or a side above
    ///   `maxSideLength`; `resourceExhaustedError` naming the size when a JPEG needs more than
    ///   `maxJPEGDecoderMemory`.
    package static func decode(_ data: Data, source: String, reduced: ReducedDecoding? = nil) throws(TasksError) -> DecodedImage {
        // Data.withUnsafeBytes rethrows untyped errors: the typed one travels in a Result.
        let result = data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { bytes in
                Result { () throws(TasksError) in try decode(bytes, source: .buffer(source), reduced: reduced) }
            }
        }
        return try result.get()
    }

    /// Decodes the bytes of an image file held in memory: see `decode(_:source:)`.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: TasksError.Subject,
        reduced: ReducedDecoding? = nil
    ) throws(TasksError) -> DecodedImage {
        guard !bytes.isEmpty else {
            throw decodingError(source, "the data is empty")
        }
        guard let container = ImageContainer(sniffing: bytes) else {
            let prefix = bytes.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
            throw decodingError(source, "unrecognized format (not JPEG, PNG or WebP; first bytes \(prefix))")
        }
        let orientation = ExifReader.orientation(in: bytes, container: container) ?? .up
        let pixels: PixelImage
        switch container {
        case .jpeg: pixels = try JPEGCodec.decode(bytes, source: source, reduced: reduced, orientation: orientation)
        case .png: pixels = try PNGCodec.decode(bytes, source: source)
        case .webp: pixels = try WebPCodec.decode(bytes, source: source, reduced: reduced, orientation: orientation)
        }
        return DecodedImage(pixels: pixels, exifOrientation: orientation)
    }

    /// The error for undecodable data.
    static func decodingError(_ source: TasksError.Subject, _ reason: String) -> TasksError {
        TasksError.invalidArgument("Failed to decode image: \(reason)", subject: source)
    }

    /// Rejects zero dimensions, images above `maxPixelCount` and sides above
    /// `maxSideLength`, before allocation.
    static func checkDimensions(width: Int, height: Int, source: TasksError.Subject) throws(TasksError) {
        guard width > 0, height > 0 else {
            throw decodingError(source, "the header gives an empty size \(width)x\(height)")
        }
        if let reason = sizeLimitViolation(width: width, height: height) {
            throw TasksError.invalidArgument("The image is too large: \(reason).", subject: source)
        }
    }

    /// Why a `width` x `height` image (both > 0) is over `maxSideLength` or `maxPixelCount`,
    /// naming the values, or nil when it is within both.
    static func sizeLimitViolation(width: Int, height: Int) -> String? {
        if width > maxSideLength || height > maxSideLength {
            return "\(width)x\(height) pixels, but width and height are limited to \(maxSideLength) pixels"
        }
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixelCount > maxPixelCount {
            return "\(width)x\(height) pixels is more than the limit of \(maxPixelCount) pixels"
        }
        return nil
    }
}
