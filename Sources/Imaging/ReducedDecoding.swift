import TasksCommon

/// Opt-in fast decoding: a JPEG or WebP file decoded at 1/2, 1/4 or 1/8 of its size, the
/// smallest of these that still covers a model input of `width` x `height` pixels across the
/// region of interest once the orientation is applied (at least that many decoded pixels on
/// both axes). JPEG uses libjpeg-turbo's scaled inverse DCTs, sizes rounded as libjpeg rounds
/// them (`jpeg_calc_output_dimensions`); WebP libwebp's scaling to the same sizes. Other files,
/// and files too small to reduce, are decoded exactly.
///
/// The pixels then differ from MediaPipe's (which decodes every pixel): classification results
/// move slightly, for much less decoding work on large photos.
package struct ReducedDecoding: Sendable, Equatable {
    /// The model input, in pixels, as the model sees it (upright).
    package var width: Int, height: Int
    /// The part of the stored image that will be classified.
    package var region: RegionOfInterest
    /// The orientation the classifier will apply, replacing the file's; nil: the file's (EXIF).
    package var orientation: ImageOrientation?

    package init(width: Int, height: Int, region: RegionOfInterest = .wholeImage, orientation: ImageOrientation? = nil) {
        self.width = width
        self.height = height
        self.region = region
        self.orientation = orientation
    }

    /// The reductions tried, largest first.
    static let denominators = [8, 4, 2]

    /// The largest denominator whose reduced size (`size(denominator)`, the stored width and
    /// height) still covers the input, or 1.
    /// - Parameter fileOrientation: the file's EXIF orientation, used when `orientation` is nil.
    func denominator(
        fileOrientation: ImageOrientation, size: (Int) throws(TasksError) -> (width: Int, height: Int)
    )
        throws(TasksError) -> Int
    {
        let quarterTurn = (orientation ?? fileOrientation).preprocessingTransform.rotationDegrees % 180 != 0
        // A quarter turn puts the input's width along the stored image's height.
        let needed = quarterTurn ? (width: height, height: width) : (width: width, height: height)
        for denominator in Self.denominators {
            let reduced = try size(denominator)
            if Float(reduced.width) * (region.right - region.left) >= Float(needed.width),
                Float(reduced.height) * (region.bottom - region.top) >= Float(needed.height)
            {
                return denominator
            }
        }
        return 1
    }
}
