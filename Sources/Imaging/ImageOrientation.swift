/// How the stored pixels of an image must be transformed to display it upright.
///
/// Mirrors `UIImage.Orientation` (the names and raw values) and MediaPipe Tasks iOS's
/// `MPImage.orientation`: `.right` means the stored image must be rotated 90° clockwise
/// to look right, as EXIF orientation 6 does. The mirrored cases first flip the stored
/// image horizontally, then rotate it as their unmirrored counterpart, which gives the
/// four EXIF flips: `.upMirrored` a horizontal flip (EXIF 2), `.downMirrored` a vertical
/// flip (EXIF 4), `.leftMirrored` a transpose (EXIF 5) and `.rightMirrored` a transverse
/// (EXIF 7).
public enum ImageOrientation: Int, Sendable, CaseIterable {
    /// Stored upright (EXIF 1).
    case up = 0
    /// Stored upside down: rotate 180° to display (EXIF 3).
    case down = 1
    /// Rotate 90° counter-clockwise to display (EXIF 8).
    case left = 2
    /// Rotate 90° clockwise to display (EXIF 6).
    case right = 3
    /// Flip horizontally to display (EXIF 2).
    case upMirrored = 4
    /// Flip horizontally, then rotate 180°, to display: a vertical flip (EXIF 4).
    case downMirrored = 5
    /// Flip horizontally, then rotate 90° counter-clockwise, to display: a transpose (EXIF 5).
    case leftMirrored = 6
    /// Flip horizontally, then rotate 90° clockwise, to display: a transverse (EXIF 7).
    case rightMirrored = 7

    /// The orientation of an EXIF/TIFF `Orientation` tag (0x0112) value, or nil when the
    /// value is not 1...8.
    ///
    /// - Parameter exifOrientation: 1 up, 2 upMirrored, 3 down, 4 downMirrored,
    ///   5 leftMirrored, 6 right, 7 rightMirrored, 8 left.
    public init?(exifOrientation: Int) {
        switch exifOrientation {
        case 1: self = .up
        case 2: self = .upMirrored
        case 3: self = .down
        case 4: self = .downMirrored
        case 5: self = .leftMirrored
        case 6: self = .right
        case 7: self = .rightMirrored
        case 8: self = .left
        default: return nil
        }
    }

    /// The EXIF `Orientation` tag value (1...8) of this orientation.
    package var exifOrientation: Int {
        switch self {
        case .up: 1
        case .upMirrored: 2
        case .down: 3
        case .downMirrored: 4
        case .leftMirrored: 5
        case .right: 6
        case .rightMirrored: 7
        case .left: 8
        }
    }

    /// The preprocessing that shows the image upright: a clockwise rotation in degrees
    /// (MediaPipe's `rotation_degrees`: up 0, right 90, down 180, left 270) applied after
    /// an optional horizontal flip of the stored pixels (the mirrored cases).
    ///
    /// MediaPipe Tasks iOS maps Right to −270° and Left to −90° in its counter-clockwise
    /// convention, which are the same rotations; it rejects the mirrored cases, which
    /// this port supports.
    /// The orientation that shows the upright image flipped left to right: flipping after a
    /// clockwise rotation R is the flip first, then a rotation of −R (training's augmentation).
    package var horizontallyFlipped: ImageOrientation {
        let (rotation, mirrored) = preprocessingTransform
        let turned = (360 - rotation) % 360
        let all: [ImageOrientation] = [.up, .right, .down, .left, .upMirrored, .rightMirrored, .downMirrored, .leftMirrored]
        return all.first { $0.preprocessingTransform == (turned, !mirrored) } ?? self
    }

    package var preprocessingTransform: (rotationDegrees: Int, mirrored: Bool) {
        switch self {
        case .up: (0, false)
        case .right: (90, false)
        case .down: (180, false)
        case .left: (270, false)
        case .upMirrored: (0, true)
        case .rightMirrored: (90, true)
        case .downMirrored: (180, true)
        case .leftMirrored: (270, true)
        }
    }
}
