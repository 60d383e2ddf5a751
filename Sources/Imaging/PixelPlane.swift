import Foundation

/// One plane of a raw image: rows of bytes, top to bottom, `bytesPerRow` apart. The Linux
/// stand-in for one plane of a `CVPixelBuffer` (`CVPixelBufferGetBaseAddressOfPlane` and
/// `CVPixelBufferGetBytesPerRowOfPlane`) or an Android `Image.Plane` with a pixel stride of 1
/// (NV12/NV21's chroma plane counts its U, V pairs as bytes).
public struct PixelPlane: Sendable, Equatable {
    /// The plane's bytes, row after row. The last row may omit its padding: at least
    /// `bytesPerRow · (rows − 1) + rowBytes` bytes, where the plane's `rows` and `rowBytes`
    /// depend on the `PixelFormat` and image size.
    public var bytes: Data
    /// The distance in bytes from the start of one row to the next: at least the plane's
    /// `rowBytes` (larger for padded rows).
    public var bytesPerRow: Int

    /// Creates a plane.
    /// - Parameters:
    ///   - bytes: The rows, top to bottom (copied when an image is made from the plane).
    ///   - bytesPerRow: The stride between rows, in bytes.
    public init(bytes: Data, bytesPerRow: Int) {
        self.bytes = bytes
        self.bytesPerRow = bytesPerRow
    }
}
