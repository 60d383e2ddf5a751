import Foundation
import Imaging
import TasksCommon

/// An image for the vision tasks: decoded pixels plus the orientation that makes them upright.
///
/// Mirrors MediaPipe Tasks iOS `MPImage`. On Linux there is no `UIImage`, `CVPixelBuffer` or
/// `CMSampleBuffer`; the nearest equivalents are a file URL or path, encoded `Data` (JPEG, PNG,
/// WebP), a raw pixel buffer (`PixelFormat`: RGBA8, BGRA8, RGB8, Gray8, or the camera and video
/// formats NV12, NV21, I420, YUYV), and separate planes (`PixelPlane`). Pixels are never
/// re-oriented in memory: the classifier applies `orientation` while preprocessing, as MediaPipe does,
/// and YUV pixels are converted to RGB only where the preprocessing samples them.
/// Limits: decoding refuses files over `MPImage.maximumFileSize` bytes before reading them and
/// images over `MPImage.maximumPixelCount` pixels before allocating them; every image, raw
/// buffers included, has at most `maximumPixelCount` pixels and sides of at most
/// `maximumSideLength` pixels.
public struct MPImage: Sendable {
    package let pixels: PixelImage

    /// The width of the stored pixels, in pixels (a `CGFloat`, as on iOS).
    public var width: CGFloat { CGFloat(pixels.width) }
    /// The height of the stored pixels, in pixels.
    public var height: CGFloat { CGFloat(pixels.height) }
    /// How the stored pixels must be turned to appear upright (`.up`: as stored). For an image
    /// read from a file or data this is its EXIF orientation, as `UIImage` reports it on iOS.
    public let orientation: ImageOrientation

    /// The largest image accepted, in pixels (100 megapixels); larger encoded images are refused
    /// from their header, before any pixel memory is allocated, and larger raw buffers before
    /// they are copied.
    public static var maximumPixelCount: Int { ImageDecoder.maxPixelCount }

    /// The largest width or height accepted, in pixels (2^26 = 67,108,864: the preprocessing
    /// keeps positions in 1/32 pixel in 32 bits). PNG files are further limited to 1,000,000
    /// pixels per side (libpng's limit).
    public static var maximumSideLength: Int { ImageDecoder.maxSideLength }

    /// The largest image file read, in bytes (256 MiB); larger files are refused from their
    /// size, before they are read.
    public static var maximumFileSize: Int { ImageDecoder.maxFileSize }

    /// Decodes a JPEG, PNG or WebP file.
    ///
    /// Transparency is dropped, not composited over a background nor premultiplied: an RGBA
    /// file (or a tRNS chunk) classifies as its RGB values, a gray + alpha PNG as its gray
    /// picture (gray repeated in red, green and blue, transparent pixels keeping their gray).
    /// MediaPipe's RGBA images behave the same; its file loader refuses gray + alpha PNGs
    /// ("Expected image with 1 (grayscale), 3 (RGB) or 4 (RGBA) channels, found 2 channels.").
    /// - Parameters:
    ///   - url: a file URL.
    ///   - orientation: overrides the file's EXIF orientation when given.
    ///   - decoding: `.exact` (every pixel, as MediaPipe; the default) or `.fast(covering:regionOfInterest:)`
    ///     (JPEG and WebP at a reduced size that still covers the model input).
    /// - Throws: `TasksError`, naming the file: invalidArgument for a URL that is not a file URL
    ///   ("only file URLs are supported: <url>"); notFound for a missing file; permissionDenied
    ///   for a file that may not be read; invalidArgument for a directory, something that is not
    ///   a regular file (a FIFO or device: refused without being opened), a file over
    ///   `maximumFileSize` bytes, an empty, truncated, corrupt or undecodable file, or an image
    ///   over `maximumPixelCount` pixels or `maximumSideLength` per side; resourceExhausted for a
    ///   progressive JPEG whose decoding needs more than 512 MiB besides its pixels.
    public init(contentsOf url: URL, orientation: ImageOrientation? = nil, decoding: ImageDecoding = .exact) throws {
        let decoded = try ImageDecoder.decode(contentsOf: url, reduced: decoding.reduction(orientation: orientation))
        self.pixels = decoded.pixels
        self.orientation = orientation ?? decoded.exifOrientation
    }

    /// Decodes a JPEG, PNG or WebP file at a path, opened as given (relative to the current
    /// directory; errors name it as given). See `init(contentsOf:orientation:decoding:)`.
    public init(contentsOfFile path: String, orientation: ImageOrientation? = nil, decoding: ImageDecoding = .exact) throws {
        try self.init(contentsOfFile: FileSystemPath(path), orientation: orientation, decoding: decoding)
    }

    /// Decodes a JPEG, PNG or WebP file at a byte path, whose name need not be UTF-8 (Linux
    /// file names are any bytes; a `String` or `URL` would replace the invalid ones). Not in
    /// MediaPipe. See `init(contentsOf:orientation:decoding:)`.
    /// - Throws: `TasksError` as `init(contentsOf:orientation:decoding:)`, naming the path as
    ///   `FileSystemPath.description` shows it.
    public init(
        contentsOfFile path: FileSystemPath, orientation: ImageOrientation? = nil, decoding: ImageDecoding = .exact
    )
        throws(TasksError)
    {
        let decoded = try ImageDecoder.decode(file: path, reduced: decoding.reduction(orientation: orientation))
        self.pixels = decoded.pixels
        self.orientation = orientation ?? decoded.exifOrientation
    }

    /// Decodes an encoded JPEG, PNG or WebP image held in memory.
    /// - Parameters:
    ///   - data: the encoded bytes.
    ///   - orientation: overrides the EXIF orientation when given.
    ///   - decoding: as in `init(contentsOf:orientation:decoding:)`.
    /// - Throws: `TasksError` invalidArgument for empty, truncated, corrupt, undecodable or
    ///   oversized data; resourceExhausted as `init(contentsOf:orientation:decoding:)`.
    public init(data: Data, orientation: ImageOrientation? = nil, decoding: ImageDecoding = .exact) throws {
        let decoded = try ImageDecoder.decode(data, source: "image data", reduced: decoding.reduction(orientation: orientation))
        self.pixels = decoded.pixels
        self.orientation = orientation ?? decoded.exifOrientation
    }

    /// Copies a raw pixel buffer held in one block of memory, the Linux stand-in for iOS's
    /// `init(pixelBuffer:orientation:)`.
    ///
    /// RGB and gray: alpha is ignored (not composited), as MediaPipe does; gray becomes
    /// R = G = B. YUV (`.nv12`, `.nv21`, `.i420`, `.i444`, `.yuyv`): the planes follow one another
    /// (Y, then UV or VU; Y, then U, then V), and the pixels are converted to RGB with
    /// `colorMatrix` in `colorRange` while the classifier samples them (see `YUVColorRange` and
    /// `YUVColorMatrix`; chroma is not interpolated). For planes in separate buffers, as a
    /// `CVPixelBuffer` of `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` has them, use
    /// `init(planes:width:height:format:colorRange:colorMatrix:orientation:)`.
    ///
    /// - Parameters:
    ///   - pixels: the rows, top to bottom. Without `bytesPerRow`, exactly the packed pixels
    ///     (RGB and gray `width · height · bytesPerPixel` bytes; YUV every plane packed), so
    ///     that a buffer of another layout (RGBA bytes described as RGB8) is an error, not a
    ///     wrong picture. With `bytesPerRow`, at least: RGB and gray
    ///     `bytesPerRow · (height − 1) + width · bytesPerPixel` bytes; YUV every plane, each
    ///     but the last taking `rows · stride` bytes, the last plane's last row may omit its
    ///     padding. Chroma planes have `ceil(height / 2)` rows (`ceil(width / 2)` samples per
    ///     row); only the covered bytes are copied.
    ///   - width: pixels per row, > 0 (odd sizes are allowed for every format).
    ///   - height: rows, > 0.
    ///   - bytesPerRow: the stride between rows in bytes, larger than the pixels for padded
    ///     rows. RGB and gray: at least `width · bytesPerPixel`. YUV: the Y plane's stride (at
    ///     least `width`; YUYV's only plane, at least `4 · ceil(width / 2)`); NV12/NV21's UV plane
    ///     has the same stride, which must hold `2 · ceil(width / 2)` bytes, and I420's U and V
    ///     planes have `ceil(bytesPerRow / 2)`. nil for rows without padding: for YUV, each
    ///     plane's stride is its row of pixels (Y `width`, UV `2 · ceil(width / 2)`, U and V
    ///     `ceil(width / 2)`), the layout of FFmpeg's rawvideo. I444's U and V planes have the Y
    ///     plane's stride.
    ///   - format: the pixel layout.
    ///   - colorRange: the range of YUV values, video (limited) range by default, as cameras
    ///     and decoders produce; ignored for RGB and gray.
    ///   - colorMatrix: the YUV matrix the pixels were encoded with, BT.601 by default (cameras,
    ///     JPEG, SD video); `.bt709` for HD video. Ignored for RGB and gray.
    ///   - orientation: how the pixels must be turned to be upright. Default `.up`.
    /// - Throws: `TasksError` invalidArgument naming the value when a size is not positive or
    ///   over `maximumSideLength` or `maximumPixelCount`, a stride is too small for a plane
    ///   (naming the plane), `pixels` is too short, or (without `bytesPerRow`) longer than
    ///   the packed pixels (naming both sizes).
    public init(
        pixels: Data, width: Int, height: Int, bytesPerRow: Int? = nil, format: PixelFormat,
        colorRange: YUVColorRange = .video, colorMatrix: YUVColorMatrix = .bt601,
        orientation: ImageOrientation = .up
    ) throws {
        self.pixels = try PixelImage(
            copying: pixels, width: width, height: height, bytesPerRow: bytesPerRow,
            format: format, colorRange: colorRange, colorMatrix: colorMatrix)
        self.orientation = orientation
    }

    /// Copies an image given as separate planes, the Linux stand-in for iOS's
    /// `init(pixelBuffer:orientation:)` with a planar `CVPixelBuffer`: a camera frame in
    /// `kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange` (`format: .nv12, colorRange: .video`) or
    /// `kCVPixelFormatType_420YpCbCr8BiPlanarFullRange` (`format: .nv12, colorRange: .full`),
    /// with one `PixelPlane` per `CVPixelBufferGetBaseAddressOfPlane` and
    /// `CVPixelBufferGetBytesPerRowOfPlane`. Android's `YUV_420_888` planes with a pixel stride of
    /// 1 are `.i420`; a decoded video frame's `AVFrame.data` and `linesize` map the same way.
    ///
    /// The pixels are converted to RGB with `colorMatrix` in `colorRange` while the classifier
    /// samples them (see `YUVColorRange` for the formulas, `YUVColorMatrix` for the matrices);
    /// each pixel uses the chroma sample covering it, without chroma interpolation. No RGB copy
    /// of the image is made.
    ///
    /// - Parameters:
    ///   - planes: the planes in order, each with rows top to bottom whose last row may omit its
    ///     padding. `.nv12`/`.nv21`: 2 planes, Y (`height` rows of `width` bytes), then the
    ///     interleaved U, V (or V, U) pairs (`ceil(height / 2)` rows of `2 · ceil(width / 2)`
    ///     bytes). `.i420`: 3 planes, Y, then U, then V (`ceil(height / 2)` rows of
    ///     `ceil(width / 2)` bytes each). `.i444`: 3 planes, Y, U, V, each `height` rows of `width`
    ///     bytes. `.yuyv`: 1 plane of `height` rows of `4 · ceil(width / 2)`
    ///     bytes. RGB and gray formats: 1 plane of `height` rows of `width · bytesPerPixel` bytes.
    ///     Each plane's `bytesPerRow` must be at least its row's bytes; only the covered bytes
    ///     are copied.
    ///   - width: pixels per row, > 0 (odd sizes are allowed).
    ///   - height: rows, > 0.
    ///   - format: the pixel layout.
    ///   - colorRange: the range of YUV values, video (limited) range by default; ignored for RGB
    ///     and gray.
    ///   - colorMatrix: the YUV matrix, BT.601 by default; `.bt709` for HD video (a
    ///     `CVPixelBuffer` whose `kCVImageBufferYCbCrMatrixKey` attachment is
    ///     `kCVImageBufferYCbCrMatrix_ITU_R_709_2`). Ignored for RGB and gray.
    ///   - orientation: how the pixels must be turned to be upright. Default `.up`.
    /// - Throws: `TasksError` invalidArgument when a size is not positive or over
    ///   `maximumSideLength` or `maximumPixelCount`, the number of planes does not match `format`, or a plane's `bytesPerRow` or byte count is too small (the
    ///   message names the plane, its expected size and the values given).
    public init(
        planes: [PixelPlane], width: Int, height: Int, format: PixelFormat,
        colorRange: YUVColorRange = .video, colorMatrix: YUVColorMatrix = .bt601,
        orientation: ImageOrientation = .up
    ) throws {
        self.pixels = try PixelImage(
            copying: planes, width: width, height: height, format: format, colorRange: colorRange,
            colorMatrix: colorMatrix)
        self.orientation = orientation
    }

    /// Wraps pixels that are already decoded (used by the video and labeling front ends).
    package init(pixels: PixelImage, orientation: ImageOrientation) {
        self.pixels = pixels
        self.orientation = orientation
    }
}
