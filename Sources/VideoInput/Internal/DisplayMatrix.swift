import CFFmpeg
import Imaging

/// Reads FFmpeg display matrices (`AV_PKT_DATA_DISPLAYMATRIX`, `AV_FRAME_DATA_DISPLAYMATRIX`):
/// the rotation and flip that phone videos store for upright display.
enum DisplayMatrix {
    /// The orientation of `stream`'s display matrix (`svt_stream_display_matrix`), or nil
    /// when it has none or a degenerate one.
    static func orientation(of stream: UnsafePointer<AVStream>) -> ImageOrientation? {
        var matrix = [Int32](repeating: 0, count: 9)
        guard svt_stream_display_matrix(stream, &matrix) != 0 else { return nil }
        return orientation(matrix)
    }

    /// The orientation of `frame`'s display matrix (`svt_frame_display_matrix`), or nil when
    /// it has none or a degenerate one.
    static func orientation(of frame: UnsafePointer<AVFrame>) -> ImageOrientation? {
        var matrix = [Int32](repeating: 0, count: 9)
        guard svt_frame_display_matrix(frame, &matrix) != 0 else { return nil }
        return orientation(matrix)
    }

    /// The orientation that a display matrix describes, to the nearest quarter turn.
    ///
    /// FFmpeg's matrix (QuickTime's layout: row vectors, y pointing down) maps a stored pixel
    /// (x, y) to the displayed (a·x + c·y, b·x + d·y), with a = m[0], b = m[1], c = m[3],
    /// d = m[4]. The result is the `ImageOrientation` whose own mapping (the same as EXIF's)
    /// is closest to that 2x2 part; scale and translation do not matter.
    ///
    /// - Parameter matrix: The 9 values of the matrix (16.16 fixed point in the 2x2 part).
    /// - Returns: nil for fewer than 9 values or a matrix whose 2x2 part is zero.
    package static func orientation(_ matrix: [Int32]) -> ImageOrientation? {
        guard matrix.count >= 9 else { return nil }
        let a = Double(matrix[0]), b = Double(matrix[1]), c = Double(matrix[3]), d = Double(matrix[4])
        guard a != 0 || b != 0 || c != 0 || d != 0 else { return nil }
        // Each orientation's map (x, y) -> (p·x + q·y, r·x + s·y) as (p, q, r, s).
        let candidates: [(ImageOrientation, (Double, Double, Double, Double))] = [
            (.up, (1, 0, 0, 1)), (.upMirrored, (-1, 0, 0, 1)),
            (.down, (-1, 0, 0, -1)), (.downMirrored, (1, 0, 0, -1)),
            (.right, (0, -1, 1, 0)), (.left, (0, 1, -1, 0)),
            (.leftMirrored, (0, 1, 1, 0)), (.rightMirrored, (0, -1, -1, 0)),
        ]
        let scored = candidates.map { orientation, map in
            (orientation, map.0 * a + map.1 * c + map.2 * b + map.3 * d)
        }
        return scored.max { $0.1 < $1.1 }?.0
    }
}
