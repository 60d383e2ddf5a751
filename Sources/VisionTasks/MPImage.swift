import Foundation
import Imaging
import TasksCommon

/// An image for the vision tasks: decoded pixels plus the orientation that makes them upright.
///
/// Mirrors MediaPipe Tasks iOS `MPImage`. On Linux there is no `UIImage`, `CVPixelBuffer` or
/// `CMSampleBuffer`; the nearest equivalents are a file URL or path, encoded `Data` (JPEG, PNG,
/// WebP), and a raw pixel buffer (`PixelFormat`: RGBA8, BGRA8, RGB8, Gray8). Pixels are never
/// re-oriented in memory: the classifier applies `orientation` while preprocessing, as MediaPipe does.
/// Decoding refuses images over `MPImage.maximumPixelCount` pixels before allocating them.
public struct MPImage: Sendable {
    package let pixels: PixelImage

    /// The width of the stored pixels, in pixels (a `CGFloat`, as on iOS).
    public var width: CGFloat { CGFloat(pixels.width) }
    /// The height of the stored pixels, in pixels.
    public var height: CGFloat { CGFloat(pixels.height) }
    /// How the stored pixels must be turned to appear upright (`.up`: as stored). For an image
    /// read from a file or data this is its EXIF orientation, as `UIImage` reports it on iOS.
    public let orientation: ImageOrientation

    /// The largest image decoding accepts, in pixels (100 megapixels); larger images are refused
    /// from their header, before any pixel memory is allocated.
    public static var maximumPixelCount: Int { ImageDecoder.maxPixelCount }

    /// Decodes a JPEG, PNG or WebP file.
    /// - Parameters:
    ///   - url: a file URL.
    ///   - orientation: overrides the file's EXIF orientation when given.
    /// - Throws: `TasksError` notFound for a missing file; invalidArgument naming the file for a
    ///   directory, an empty, truncated or undecodable file, or one over `maximumPixelCount`.
    public init(contentsOf url: URL, orientation: ImageOrientation? = nil) throws {
        let decoded = try ImageDecoder.decode(contentsOf: url)
        self.pixels = decoded.pixels
        self.orientation = orientation ?? decoded.exifOrientation
    }

    /// Decodes a JPEG, PNG or WebP file at a path. See `init(contentsOf:orientation:)`.
    public init(contentsOfFile path: String, orientation: ImageOrientation? = nil) throws {
        try self.init(contentsOf: URL(fileURLWithPath: path), orientation: orientation)
    }

    /// Decodes an encoded JPEG, PNG or WebP image held in memory.
    /// - Parameters:
    ///   - data: the encoded bytes.
    ///   - orientation: overrides the EXIF orientation when given.
    /// - Throws: `TasksError` invalidArgument for empty, truncated, undecodable or oversized data.
    public init(data: Data, orientation: ImageOrientation? = nil) throws {
        let decoded = try ImageDecoder.decode(data, source: "image data")
        self.pixels = decoded.pixels
        self.orientation = orientation ?? decoded.exifOrientation
    }

    /// Copies a raw pixel buffer, the Linux stand-in for iOS's `init(pixelBuffer:orientation:)`.
    /// Alpha is ignored (not composited), as MediaPipe does; gray becomes R = G = B.
    /// - Parameters:
    ///   - pixels: at least `bytesPerRow · (height − 1) + width · bytesPerPixel` bytes, rows top to bottom.
    ///   - width: pixels per row, > 0.
    ///   - height: rows, > 0.
    ///   - bytesPerRow: the stride between rows in bytes (at least `width · bytesPerPixel`;
    ///     larger for padded rows); nil for tightly packed rows.
    ///   - format: the pixel layout.
    ///   - orientation: how the pixels must be turned to be upright. Default `.up`.
    /// - Throws: `TasksError` invalidArgument naming the value when a size is inconsistent.
    public init(pixels: Data, width: Int, height: Int, bytesPerRow: Int? = nil, format: PixelFormat,
                orientation: ImageOrientation = .up) throws {
        self.pixels = try PixelImage(copying: pixels, width: width, height: height,
                                     bytesPerRow: bytesPerRow ?? width * format.bytesPerPixel, format: format)
        self.orientation = orientation
    }

    /// Wraps pixels that are already decoded (used by the video and labeling front ends).
    package init(pixels: PixelImage, orientation: ImageOrientation) {
        self.pixels = pixels
        self.orientation = orientation
    }
}
