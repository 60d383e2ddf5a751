import TasksCommon

/// Pixels that stay in memory another library owns, such as the planes of a decoded video
/// frame, read in place by the preprocessing instead of copied into the image
/// (`PixelImage.init(borrowing:width:height:format:colorRange:colorMatrix:)`).
///
/// `@unchecked Sendable`: the planes are only read, and `owner` keeps them allocated and
/// unchanged for as long as this object lives (a decoder's output frame is immutable while
/// referenced).
package final class BorrowedPixels: @unchecked Sendable {
    /// One plane: where its first row starts and the distance from one row to the next.
    package struct Plane {
        /// The plane's first byte.
        package let start: UnsafePointer<UInt8>
        /// The distance in bytes from the start of one row to the next (> 0).
        package let bytesPerRow: Int

        /// Creates a plane.
        package init(start: UnsafePointer<UInt8>, bytesPerRow: Int) {
            self.start = start
            self.bytesPerRow = bytesPerRow
        }
    }

    /// The planes, in `PixelFormat.planeNames` order.
    let planes: [Plane]
    /// What keeps the planes alive: released when this object is freed.
    private let owner: AnyObject

    /// Borrows `planes` for as long as `owner` keeps them.
    ///
    /// - Parameters:
    ///   - planes: One plane per `format.planeNames` entry of the image made from them; each
    ///     must hold its rows (`bytesPerRow · (rows − 1) + rowBytes` bytes from `start`).
    ///   - owner: Keeps the memory allocated and unchanged while it is referenced (for a video
    ///     frame, an object that unreferences the frame when freed).
    package init(planes: [Plane], owner: AnyObject) {
        self.planes = planes
        self.owner = owner
    }
}

/// Where a `PixelImage`'s pixels are.
enum PixelStorage: Sendable {
    /// In an array of the image's own, the planes one after another (`PixelImage.planes`).
    case owned([UInt8])
    /// Borrowed, with the bytes each plane covers (its last row without padding).
    case borrowed(BorrowedPixels, coveredBytes: [Int])
}

/// The address of each plane's first byte, valid inside `PixelImage.withPlaneStarts(_:)`.
struct PlaneStarts {
    /// The start of an owned array, or nil for borrowed planes.
    fileprivate let base: UnsafePointer<UInt8>?
    fileprivate let layouts: [PlaneLayout]
    fileprivate let borrowed: [BorrowedPixels.Plane]

    /// The first byte of plane `plane` (0 for the only plane of a packed format).
    subscript(plane: Int) -> UnsafePointer<UInt8> {
        if let base { return base + layouts[plane].offset }
        return borrowed[plane].start
    }
}

extension PixelImage {
    /// Creates an image that reads borrowed planes in place, checking their strides.
    ///
    /// - Parameters: as `init(copying:width:height:format:colorRange:colorMatrix:)`, with the
    ///   planes in `pixels` (their sizes are the borrower's guarantee, not checked).
    /// - Throws: `TasksError` `invalidArgumentError` for a size that is not positive or over the
    ///   limits, a plane count that does not match the format, or a stride too small for its
    ///   plane, naming the plane and the values.
    package init(
        borrowing pixels: BorrowedPixels, width: Int, height: Int, format: PixelFormat,
        colorRange: YUVColorRange = .video, colorMatrix: YUVColorMatrix = .bt601
    ) throws(TasksError) {
        let sizes = try Self.planeSizes(pixels.planes.map { ($0.bytesPerRow, nil) }, width: width, height: height, format: format)
        // Where `bytes` puts each plane: after the previous one's padded rows, as
        // `init(bytes:width:height:bytesPerRow:format:...)` expects planes.
        var layouts: [PlaneLayout] = []
        var offset = 0
        for (plane, size) in zip(pixels.planes, sizes) {
            layouts.append(PlaneLayout(offset: offset, bytesPerRow: plane.bytesPerRow))
            let (next, overflow) = offset.addingReportingOverflow(size.padded)
            guard !overflow else {
                throw .invalidArgument("Pixel buffer too large: \(width)x\(height) \(format) needs more than Int.max bytes.")
            }
            offset = next
        }
        self.init(
            storage: .borrowed(pixels, coveredBytes: sizes.map(\.covered)), width: width, height: height, format: format,
            colorRange: colorRange, colorMatrix: colorMatrix, planes: layouts)
    }

    /// The pixel bytes: at least `bytesPerRow * (height - 1) + width * format.bytesPerPixel`
    /// for the RGB and gray formats; every plane of a YUV format (see `planes`). Borrowed
    /// pixels are copied, each plane at its offset in `planes` (the padding of a plane's last
    /// row is zeros).
    package var bytes: [UInt8] {
        switch storage {
        case .owned(let bytes):
            return bytes
        case .borrowed(let pixels, let covered):
            var bytes = [UInt8](repeating: 0, count: planes[planes.count - 1].offset + covered[covered.count - 1])
            bytes.withUnsafeMutableBufferPointer { buffer in
                withExtendedLifetime(pixels) {
                    for (index, plane) in pixels.planes.enumerated() {
                        (buffer.baseAddress! + planes[index].offset).update(from: plane.start, count: covered[index])
                    }
                }
            }
            return bytes
        }
    }

    /// Calls `body` with the address of each plane's first byte, valid during the call.
    func withPlaneStarts<Result>(_ body: (PlaneStarts) -> Result) -> Result {
        switch storage {
        case .owned(let bytes):
            return bytes.withUnsafeBufferPointer { buffer in
                // Never empty: width and height are > 0.
                body(PlaneStarts(base: buffer.baseAddress.unsafelyUnwrapped, layouts: planes, borrowed: []))
            }
        case .borrowed(let pixels, _):
            return withExtendedLifetime(pixels) { body(PlaneStarts(base: nil, layouts: planes, borrowed: pixels.planes)) }
        }
    }
}
