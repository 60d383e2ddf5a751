import Foundation

/// Where each tensor pixel samples the source image: the map that MediaPipe's CPU
/// `ImageToTensorCalculator` builds (a rotated ROI rectangle whose corners map to the
/// tensor corners) and hands to OpenCV's `warpPerspective`.
///
/// Tensor pixel `(u, v)` samples the source at `(m0 u + m1 v + m2, m3 u + m4 v + m5) /
/// (m6 u + m7 v + m8)`, in pixels with pixel centres at integer coordinates. For the
/// rectangles used here the map is affine up to rounding noise: ideally it is
/// `c + R(θ)((u/W − ½)w, (v/H − ½)h)`. The matrix is computed with MediaPipe's and
/// OpenCV's arithmetic step by step (single-precision rectangle and corners,
/// `getPerspectiveTransform`'s 8x8 LU solve, `invert`'s 3x3 cofactors), so positions round
/// to the same 1/32 pixel even where the ideal position is an exact tie.
struct SamplingGeometry: Sendable, Equatable {
    /// The tensor-to-source matrix, row-major (OpenCV's inverted `M`).
    var matrix: [Double]
    /// When true the map is for the horizontally flipped image: a source x becomes
    /// `imageWidth - 1 - x` (applied in fixed point by the sampler).
    var mirrored: Bool

    /// Builds the map for a validated region of interest.
    ///
    /// - Parameters:
    ///   - imageWidth: Source width in pixels.
    ///   - imageHeight: Source height in pixels.
    ///   - tensorWidth: Tensor width in pixels.
    ///   - tensorHeight: Tensor height in pixels.
    ///   - region: Normalized left, top, right, bottom in stored-image coordinates.
    ///   - rotationDegrees: Clockwise rotation, a multiple of 90.
    ///   - mirrored: Flip the stored image horizontally before the crop and rotation.
    init(
        imageWidth: Int, imageHeight: Int, tensorWidth: Int, tensorHeight: Int,
        region: RegionOfInterest, rotationDegrees: Int, mirrored: Bool
    ) {
        let corners = Self.corners(
            imageWidth: imageWidth, imageHeight: imageHeight, region: region,
            rotationDegrees: rotationDegrees, mirrored: mirrored)
        let tensorW = Float(tensorWidth), tensorH = Float(tensorHeight)
        // boxPoints order (bottom-left, top-left, top-right, bottom-right) to the tensor corners.
        let targets: [(x: Float, y: Float)] = [(0, tensorH), (0, 0), (tensorW, 0), (tensorW, tensorH)]
        if let forward = PerspectiveMath.perspectiveTransform(from: corners, to: targets),
            let inverse = PerspectiveMath.inverted3x3(forward)
        {
            matrix = inverse
        } else {
            // Only for degenerate rectangles, which validation excludes: the affine map.
            let (bottomLeft, topLeft, topRight) = (corners[0], corners[1], corners[2])
            matrix = [
                (Double(topRight.x) - Double(topLeft.x)) / Double(tensorWidth),
                (Double(bottomLeft.x) - Double(topLeft.x)) / Double(tensorHeight), Double(topLeft.x),
                (Double(topRight.y) - Double(topLeft.y)) / Double(tensorWidth),
                (Double(bottomLeft.y) - Double(topLeft.y)) / Double(tensorHeight), Double(topLeft.y),
                0, 0, 1,
            ]
        }
        self.mirrored = mirrored
    }

    /// The corners of the region in source pixels, in `cv::boxPoints` order: bottom-left,
    /// top-left, top-right, bottom-right of the rotated rectangle (the points that end up
    /// at the tensor's corners).
    static func corners(
        imageWidth: Int, imageHeight: Int, region: RegionOfInterest,
        rotationDegrees: Int, mirrored: Bool
    ) -> [(x: Float, y: Float)] {
        let imageW = Float(imageWidth), imageH = Float(imageHeight)
        // The flipped image sees the region mirrored.
        let left = mirrored ? 1 - region.right : region.left
        let right = mirrored ? 1 - region.left : region.right
        // BaseVisionTaskApi::ConvertToNormalizedRect (float fields).
        let centerXNorm = (left + right) / 2
        let centerYNorm = (region.top + region.bottom) / 2
        var widthNorm = right - left
        var heightNorm = region.bottom - region.top
        let rotation = Float(-Double(rotationDegrees) * Double.pi / 180)
        if rotationDegrees % 180 != 0 {
            (widthNorm, heightNorm) = (heightNorm * imageH / imageW, widthNorm * imageW / imageH)
        }
        // GetRoi: the rectangle in pixels.
        let centerX = centerXNorm * imageW, centerY = centerYNorm * imageH
        let width = widthNorm * imageW, height = heightNorm * imageH
        // cv::RotatedRect(center, size, degrees) and its corner computation.
        let degrees = Float(Double(rotation * 180) / Double.pi)
        let radians = Double(degrees) * Double.pi / 180
        let halfCos = Float(cos(radians)) * 0.5, halfSin = Float(sin(radians)) * 0.5
        let bottomLeft = (
            x: centerX - halfSin * height - halfCos * width,
            y: centerY + halfCos * height - halfSin * width
        )
        let topLeft = (
            x: centerX + halfSin * height - halfCos * width,
            y: centerY - halfCos * height - halfSin * width
        )
        // OpenCV 5 computes the last two corners directly (not as 2 * center - opposite).
        let topRight = (
            x: centerX + halfSin * height + halfCos * width,
            y: centerY - halfCos * height + halfSin * width
        )
        let bottomRight = (
            x: centerX - halfSin * height + halfCos * width,
            y: centerY + halfCos * height + halfSin * width
        )
        return [bottomLeft, topLeft, topRight, bottomRight]
    }
}
