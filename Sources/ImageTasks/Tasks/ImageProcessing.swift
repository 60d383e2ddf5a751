import Foundation
import TasksCommon
import VisionTasks

/// The image-processing options of a run, as MediaPipe's `ImageProcessingOptions` and the
/// command line's `--roi`, `--rotation` and `--decode` give them: the same for every image.
package struct ImageProcessing: Sendable {
    /// Normalized [0, 1], top-left origin, in the stored pixels' coordinates; `.zero` for the whole image.
    package var regionOfInterest: CGRect
    /// Replaces each file's EXIF orientation when set.
    package var orientation: ImageOrientation?
    /// Decode JPEG and WebP files at a reduced size that still covers the model input
    /// (`ImageDecoding.fast`); exact (MediaPipe's pixels) otherwise.
    package var fastDecoding: Bool

    package init(regionOfInterest: CGRect = .zero, orientation: ImageOrientation? = nil, fastDecoding: Bool = false) {
        self.regionOfInterest = regionOfInterest
        self.orientation = orientation
        self.fastDecoding = fastDecoding
    }

    /// How to decode for a model whose input is `size` pixels.
    package func decoding(covering size: CGSize) -> ImageDecoding {
        fastDecoding ? .fast(covering: size, regionOfInterest: regionOfInterest) : .exact
    }

    /// The file at `path`, decoded for a model whose input is `size` pixels.
    /// - Throws: `TasksError` naming the file.
    package func image(file path: FileSystemPath, covering size: CGSize) throws(TasksError) -> MPImage {
        try MPImage(contentsOfFile: path, orientation: orientation, decoding: decoding(covering: size))
    }

    /// Encoded bytes, decoded for a model whose input is `size` pixels.
    /// - Throws: `TasksError` for undecodable data.
    package func image(encoded data: Data, covering size: CGSize) throws(TasksError) -> MPImage {
        do {
            return try MPImage(data: data, orientation: orientation, decoding: decoding(covering: size))
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    /// A decoded picture (a video frame's `image`) with `orientation` in place of its own when
    /// set: `--rotation` replaces a video's display matrix as it replaces a photo's EXIF tag.
    package func oriented(_ image: MPImage) -> MPImage {
        orientation.map { MPImage(pixels: image.pixels, orientation: $0) } ?? image
    }
}
