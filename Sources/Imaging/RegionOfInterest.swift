import Foundation
import TasksCommon

/// A normalized region of interest: the part of the stored image to classify, as MediaPipe's
/// `ImageProcessingOptions.region_of_interest` (a `RectF`) holds it.
///
/// Edges are fractions of the stored (unrotated) image's width and height, top-left origin,
/// in single precision as MediaPipe stores them: 0 ≤ left < right ≤ 1, 0 ≤ top < bottom ≤ 1.
/// Every region is checked once, when it is made; the preprocessing then trusts it.
package struct RegionOfInterest: Sendable, Equatable {
    /// The left, top, right and bottom edges, normalized to [0, 1].
    package let left: Float, top: Float, right: Float, bottom: Float

    /// The whole image.
    package static let wholeImage = RegionOfInterest(uncheckedLeft: 0, top: 0, right: 1, bottom: 1)

    private init(uncheckedLeft left: Float, top: Float, right: Float, bottom: Float) {
        (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
    }

    /// A region from a normalized `CGRect` (x, y, width, height), checked as MediaPipe's
    /// `ConvertToNormalizedRect` does: left = x, top = y, right = x + width, bottom = y + height.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages, followed by the values:
    ///   "Expected RectF with left < right and top < bottom." and "Expected RectF values to be
    ///   in [0,1]." (NaN included, which MediaPipe only catches later).
    package init(_ rect: CGRect) throws(TasksError) {
        let (left, top) = (Float(rect.origin.x), Float(rect.origin.y))
        let (right, bottom) = (Float(rect.origin.x + rect.size.width), Float(rect.origin.y + rect.size.height))
        let values = "Got left \(left), top \(top), right \(right), bottom \(bottom)."
        if left >= right || top >= bottom {
            throw .invalidArgument("Expected RectF with left < right and top < bottom. \(values)")
        }
        if !(left >= 0 && top >= 0 && right <= 1 && bottom <= 1) {
            throw .invalidArgument("Expected RectF values to be in [0,1]. \(values)")
        }
        self.init(uncheckedLeft: left, top: top, right: right, bottom: bottom)
    }

    /// A region as MediaPipe Tasks iOS takes it: `CGRect.zero` means the whole image, any
    /// other rectangle is checked as `init(_:)` checks it.
    /// - Throws: as `init(_:)`.
    package init(iOSRect rect: CGRect) throws(TasksError) {
        self = rect == .zero ? .wholeImage : try RegionOfInterest(rect)
    }
}
