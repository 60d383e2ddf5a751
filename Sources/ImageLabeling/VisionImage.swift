import Foundation
import Imaging
import TasksCommon

/// An image to label, with the orientation that makes it upright. Mirrors ML Kit's `VisionImage`.
///
/// On Linux there is no `UIImage` or `CMSampleBuffer`; the image comes from a file URL or path,
/// encoded `Data` (JPEG, PNG, WebP), or a raw pixel buffer, decoded and checked exactly as
/// VisionTasks' `MPImage` is (same decoders, limits and errors). A class with a settable
/// `orientation`, as in ML Kit, whose guide sets it from the device and camera (mirrored values
/// for the front camera). Not `Sendable`: the labeler copies the pixels' reference and the
/// orientation when a call starts.
public final class VisionImage {
    let pixels: PixelImage

    /// How the stored pixels must be turned to appear upright. For a file or data it starts as the
    /// EXIF orientation (as `UIImage.imageOrientation` would); otherwise `.up`.
    public var orientation: ImageOrientation

    /// The width of the stored pixels, in pixels.
    public var width: Int { pixels.width }
    /// The height of the stored pixels, in pixels.
    public var height: Int { pixels.height }

    package init(pixels: PixelImage, orientation: ImageOrientation) {
        self.pixels = pixels
        self.orientation = orientation
    }

    private convenience init(_ decoded: DecodedImage) {
        self.init(pixels: decoded.pixels, orientation: decoded.exifOrientation)
    }

    /// Decodes a JPEG, PNG or WebP file; the orientation is its EXIF orientation.
    /// - Throws: `TasksError` with the file as subject: invalidArgument for a URL that is not a
    ///   file URL, a directory or other non-regular file, a file over 256 MiB, or undecodable or
    ///   oversized contents; notFound for a missing file; permissionDenied for an unreadable one.
    public convenience init(contentsOf url: URL) throws {
        self.init(try ImageDecoder.decode(contentsOf: url))
    }

    /// Decodes a JPEG, PNG or WebP file at a path. See `init(contentsOf:)`.
    public convenience init(contentsOfFile path: String) throws {
        self.init(try ImageDecoder.decode(file: FileSystemPath(path)))
    }

    /// Decodes the image file at a byte path, whose name need not be UTF-8 (Linux file names
    /// are any bytes). Not in ML Kit. See `init(contentsOf:)`.
    /// - Throws: `TasksError` as `init(contentsOf:)`, naming the path as `FileSystemPath.description` shows it.
    public convenience init(contentsOfFile path: FileSystemPath) throws(TasksError) {
        self.init(try ImageDecoder.decode(file: path))
    }

    /// Decodes encoded image bytes (JPEG, PNG or WebP); the orientation is their EXIF orientation.
    /// - Throws: `TasksError` invalidArgument for empty, undecodable or oversized data.
    public convenience init(data: Data) throws {
        self.init(try ImageDecoder.decode(data, source: "image data"))
    }

    /// Copies a raw pixel buffer (the Linux stand-in for `VisionImage(buffer:)`); orientation `.up`.
    /// The layout is `MPImage.init(pixels:width:height:bytesPerRow:format:colorRange:orientation:)`'s.
    /// - Throws: `TasksError` invalidArgument naming the value when a size is inconsistent.
    public convenience init(pixels: Data, width: Int, height: Int, bytesPerRow: Int? = nil, format: PixelFormat) throws {
        self.init(
            pixels: try PixelImage(copying: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: format),
            orientation: .up)
    }
}
