/// The double-precision matrix arithmetic of OpenCV's `getPerspectiveTransform` and
/// `invert`, reproduced operation for operation so that rounding noise (which decides
/// exact 1/32-pixel ties in the warp) is the same as MediaPipe's.
enum PerspectiveMath {
    /// The 3x3 matrix (row-major, last element 1) mapping four source points to four
    /// destination points, as `cv::getPerspectiveTransform(src, dst, DECOMP_LU)`: an 8x8
    /// linear system whose product terms are single precision, solved by LU with partial
    /// pivoting.
    ///
    /// - Returns: nil when the system is singular (a pivot below 100 x DBL_EPSILON).
    static func perspectiveTransform(from source: [(x: Float, y: Float)], to target: [(x: Float, y: Float)]) -> [Double]? {
        precondition(source.count == 4 && target.count == 4)
        var a = [Double](repeating: 0, count: 64)
        var b = [Double](repeating: 0, count: 8)
        for i in 0..<4 {
            let (sx, sy, tx, ty) = (source[i].x, source[i].y, target[i].x, target[i].y)
            a[i * 8 + 0] = Double(sx); a[(i + 4) * 8 + 3] = Double(sx)
            a[i * 8 + 1] = Double(sy); a[(i + 4) * 8 + 4] = Double(sy)
            a[i * 8 + 2] = 1; a[(i + 4) * 8 + 5] = 1
            a[i * 8 + 6] = Double(-sx * tx)
            a[i * 8 + 7] = Double(-sy * tx)
            a[(i + 4) * 8 + 6] = Double(-sx * ty)
            a[(i + 4) * 8 + 7] = Double(-sy * ty)
            b[i] = Double(tx)
            b[i + 4] = Double(ty)
        }
        guard solveLU(&a, &b, size: 8) else { return nil }
        return b + [1]
    }

    /// Solves `a x = b` in place (`b` becomes `x`) by Gaussian elimination with partial
    /// pivoting, in the operation order of OpenCV's `hal::LU` (`LUImpl`; back substitution
    /// divides by the pivots, as in the OpenCV 5.1 that MediaPipe 1.2.3 bundles).
    ///
    /// - Returns: false when a pivot is below 100 x DBL_EPSILON in magnitude.
    static func solveLU(_ a: inout [Double], _ b: inout [Double], size m: Int) -> Bool {
        let epsilon = Double.ulpOfOne * 100
        for i in 0..<m {
            var pivotRow = i
            for j in (i + 1)..<m where abs(a[j * m + i]) > abs(a[pivotRow * m + i]) {
                pivotRow = j
            }
            guard abs(a[pivotRow * m + i]) >= epsilon else { return false }
            if pivotRow != i {
                for j in i..<m { a.swapAt(i * m + j, pivotRow * m + j) }
                b.swapAt(i, pivotRow)
            }
            let negativeInverse = -1 / a[i * m + i]
            for j in (i + 1)..<m {
                let alpha = a[j * m + i] * negativeInverse
                for k in (i + 1)..<m {
                    a[j * m + k] += alpha * a[i * m + k]
                }
                b[j] += alpha * b[i]
            }
        }
        for i in stride(from: m - 1, through: 0, by: -1) {
            var sum = b[i]
            for k in (i + 1)..<m {
                sum -= a[i * m + k] * b[k]
            }
            b[i] = sum / a[i * m + i]
        }
        return true
    }

    /// The inverse of a 3x3 matrix (row-major) by cofactors over the determinant, as
    /// `cv::invert(DECOMP_LU)` does for 3x3 double matrices.
    ///
    /// - Returns: nil when the determinant is 0.
    static func inverted3x3(_ s: [Double]) -> [Double]? {
        func e(_ row: Int, _ column: Int) -> Double { s[row * 3 + column] }
        let determinant =
            e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1))
            - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
            + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
        guard determinant != 0 else { return nil }
        let d = 1 / determinant
        return [
            (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) * d,
            (e(0, 2) * e(2, 1) - e(0, 1) * e(2, 2)) * d,
            (e(0, 1) * e(1, 2) - e(0, 2) * e(1, 1)) * d,
            (e(1, 2) * e(2, 0) - e(1, 0) * e(2, 2)) * d,
            (e(0, 0) * e(2, 2) - e(0, 2) * e(2, 0)) * d,
            (e(0, 2) * e(1, 0) - e(0, 0) * e(1, 2)) * d,
            (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0)) * d,
            (e(0, 1) * e(2, 0) - e(0, 0) * e(2, 1)) * d,
            (e(0, 0) * e(1, 1) - e(0, 1) * e(1, 0)) * d,
        ]
    }
}
