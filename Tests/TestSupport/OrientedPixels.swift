import Foundation
import Imaging

/// Pixels as a camera or file would store them so that `orientation` makes them `upright`
/// again: the inverse of the orientation, applied to RGB8 copies of real pictures.
public struct OrientedPixels {
    /// RGB8 rows, tightly packed.
    public let bytes: Data
    public let width: Int
    public let height: Int

    /// Stores `upright` (any format; read as RGB) turned by the inverse of `orientation`.
    package init(upright: PixelImage, orientation: ImageOrientation) {
        let quarterTurn = [.left, .right, .leftMirrored, .rightMirrored].contains(orientation)
        (width, height) = quarterTurn ? (upright.height, upright.width) : (upright.width, upright.height)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (u, v) = OrientedPixels.displayed(x, y, orientation: orientation, width: width, height: height)
                let pixel = upright.rgba(x: u, y: v)
                bytes.replaceSubrange((y * width + x) * 3..<(y * width + x + 1) * 3, with: [pixel.red, pixel.green, pixel.blue])
            }
        }
        self.bytes = Data(bytes)
    }

    /// Where the stored pixel (x, y) of a `width` x `height` image appears once `orientation`
    /// is applied (UIImage/EXIF meaning).
    public static func displayed(_ x: Int, _ y: Int, orientation: ImageOrientation, width w: Int, height h: Int) -> (Int, Int) {
        switch orientation {
        case .up: (x, y)
        case .upMirrored: (w - 1 - x, y)
        case .down: (w - 1 - x, h - 1 - y)
        case .downMirrored: (x, h - 1 - y)
        case .right: (h - 1 - y, x)  // turn 90° clockwise to display
        case .left: (y, w - 1 - x)  // turn 90° counter-clockwise to display
        case .leftMirrored: (y, x)  // transpose
        case .rightMirrored: (h - 1 - y, w - 1 - x)  // transverse
        }
    }
}
