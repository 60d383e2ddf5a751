import Foundation
import Imaging

/// How `MPImage` decodes an image file. (Not in MediaPipe's API, which always decodes every pixel.)
public enum ImageDecoding: Sendable, Equatable {
    /// Every pixel, as MediaPipe decodes: results are MediaPipe's. The default.
    case exact
    /// JPEG and WebP files decoded at 1/2, 1/4 or 1/8 of their size (libjpeg-turbo's scaled
    /// inverse DCTs; libwebp's scaling), the smallest that still has at least `size` pixels
    /// (width x height, as the model sees the image: pass `ImageClassifier.inputImageSize`)
    /// across `regionOfInterest` (normalized, in the stored image's coordinates, `.zero` for
    /// the whole image, as `classify(image:regionOfInterest:)` takes it) once the orientation is
    /// applied. PNG files, and images too small to reduce, are decoded exactly. Much faster for
    /// large photos; scores move slightly from MediaPipe's (the pixels are averaged by the DCT
    /// instead of by the bilinear warp).
    case fast(covering: CGSize, regionOfInterest: CGRect = .zero)

    /// The reduced decoding for `orientation` (the override, or nil for the file's own).
    /// - Throws: `TasksError` invalidArgument for a region outside [0, 1] or a size below 1.
    func reduction(orientation: ImageOrientation?) throws(TasksError) -> ReducedDecoding? {
        guard case let .fast(size, region) = self else { return nil }
        guard size.width >= 1, size.height >= 1, size.width <= 1e6, size.height <= 1e6 else {
            throw TasksError.invalidArgument(
                "The size fast decoding must cover is \(size.width)x\(size.height); "
                    + "width and height must be at least 1 pixel.", subject: .option("decoding"))
        }
        return ReducedDecoding(
            width: Int(size.width.rounded(.up)), height: Int(size.height.rounded(.up)),
            region: try RegionOfInterest(iOSRect: region), orientation: orientation)
    }
}
