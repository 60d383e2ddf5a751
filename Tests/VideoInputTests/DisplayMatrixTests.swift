import CFFmpeg
import Imaging
import Testing

@testable import VideoInput

/// Display matrices built with FFmpeg's own functions (`av_display_rotation_set`, a clockwise
/// rotation for display, and `av_display_matrix_flip`, a flip after it) read back as the
/// orientation with the same effect on the stored picture.
@Suite("Display matrix")
struct DisplayMatrixTests {
    /// (clockwise degrees, horizontal flip, vertical flip, the orientation that displays alike).
    static let cases: [(Double, Bool, Bool, ImageOrientation)] = [
        (0, false, false, .up), (90, false, false, .right), (180, false, false, .down), (270, false, false, .left),
        (-90, false, false, .left), (0, true, false, .upMirrored), (0, false, true, .downMirrored),
        // 90° clockwise then a horizontal flip: (x, y) -> (y, x), a transpose.
        (90, true, false, .leftMirrored),
        // 90° clockwise then a vertical flip: (x, y) -> (h-1-y, w-1-x), a transverse.
        (90, false, true, .rightMirrored),
        (180, true, false, .downMirrored), (88, false, false, .right), (-178, false, false, .down),
    ]

    @Test("each rotation and flip maps to its orientation", arguments: cases)
    func orientation(degrees: Double, horizontalFlip: Bool, verticalFlip: Bool, expected: ImageOrientation) {
        var matrix = [Int32](repeating: 0, count: 9)
        av_display_rotation_set(&matrix, degrees)
        av_display_matrix_flip(&matrix, horizontalFlip ? 1 : 0, verticalFlip ? 1 : 0)
        #expect(DisplayMatrix.orientation(matrix) == expected, "\(matrix)")
    }

    @Test("a degenerate or short matrix has no orientation")
    func degenerate() {
        #expect(DisplayMatrix.orientation([Int32](repeating: 0, count: 9)) == nil)
        #expect(DisplayMatrix.orientation([65_536, 0, 0]) == nil)
    }
}
