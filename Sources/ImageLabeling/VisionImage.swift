import Foundation
import Imaging
import VisionTasks

/// An image to label, with the orientation that makes it upright. Mirrors ML Kit's `VisionImage`.
///
/// On Linux there is no `UIImage` or `CMSampleBuffer`; the image comes from the same sources as
/// `MPImage`: a file URL or path, encoded `Data` (JPEG, PNG, WebP), a raw pixel buffer, or an
/// `MPImage`. A class with a settable `orientation`, as in ML Kit, whose guide sets it from the
/// device and camera (mirrored values for the front camera). Not `Sendable`: the labeler copies
/// the pixels' reference and the orientation when a call starts.
public final class VisionImage {
    let pixels: PixelImage

    /// How the stored pixels must be turned to appear upright. For a file or data it starts as the
    /// EXIF orientation (as `UIImage.imageOrientation` would); otherwise `.up`.
    public var orientation: ImageOrientation

    /// The width of the stored pixels, in pixels.
    public var width: Int { pixels.width }
    /// The height of the stored pixels, in pixels.
    public var height: Int { pixels.height }

    /// Wraps an `MPImage` (its pixels and orientation).
    public init(image: MPImage) {
        self.pixels = image.pixels
        self.orientation = image.orientation
    }

    /// Decodes a JPEG, PNG or WebP file. See `MPImage.init(contentsOf:orientation:)`.
    /// - Throws: `TasksError` notFound for a missing file, invalidArgument for an undecodable one.
    public convenience init(contentsOf url: URL) throws {
        self.init(image: try MPImage(contentsOf: url))
    }

    /// Decodes a JPEG, PNG or WebP file at a path. See `MPImage.init(contentsOfFile:orientation:)`.
    /// - Throws: `TasksError` notFound for a missing file, invalidArgument for an undecodable one.
    public convenience init(contentsOfFile path: String) throws {
        self.init(image: try MPImage(contentsOfFile: path))
    }

    /// Decodes encoded image bytes. See `MPImage.init(data:orientation:)`.
    /// - Throws: `TasksError` invalidArgument for empty, undecodable or oversized data.
    public convenience init(data: Data) throws {
        self.init(image: try MPImage(data: data))
    }

    /// Copies a raw pixel buffer (the Linux stand-in for `VisionImage(buffer:)`); orientation `.up`.
    /// See `MPImage.init(pixels:width:height:bytesPerRow:format:orientation:)` for the layout.
    /// - Throws: `TasksError` invalidArgument naming the value when a size is inconsistent.
    public convenience init(pixels: Data, width: Int, height: Int, bytesPerRow: Int? = nil, format: PixelFormat) throws {
        self.init(image: try MPImage(pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: format))
    }
}
