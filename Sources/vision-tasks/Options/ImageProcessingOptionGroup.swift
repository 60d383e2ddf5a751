import Foundation
import ImageTasks
import Imaging
import VisionTasks

/// MediaPipe's `ImageProcessingOptions` on the command line: a region of interest and a
/// rotation, for classify, classify-video and live.
struct ImageProcessingOptionGroup: ParsableArguments {
    static let regionOfInterest = Option<CGRect?>(
        name: "roi", valueName: "X,Y,W,H",
        help: "Region of interest, normalized [0,1], top-left origin, in the stored image's coordinates (as a CGRect).",
        default: nil, transform: region)
    static let rotation = Option<ImageOrientation?>(
        name: "rotation", valueName: "DEG",
        help: "Rotate the stored pixels clockwise by DEG (a multiple of 90), MediaPipe's rotation_degrees; replaces the "
            + "orientation of the file (EXIF) or video (display matrix).",
        default: nil, transform: orientation)

    static let optionTable = [regionOfInterest.definition, rotation.definition]

    /// The region to classify; `CGRect.zero` (the whole image) when not given, as on iOS.
    let regionOfInterest: CGRect
    /// The orientation that replaces the image's own, or nil to keep it.
    let orientation: ImageOrientation?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        regionOfInterest = try parsed.value(Self.regionOfInterest) ?? .zero
        orientation = try parsed.value(Self.rotation)
    }

    /// The task layer's settings for a run, with `decoding` (`--decode`).
    func processing(decoding: DecodingMode) -> ImageProcessing {
        ImageProcessing(regionOfInterest: regionOfInterest, orientation: orientation, fastDecoding: decoding == .fast)
    }

    /// "X,Y,W,H" as a rectangle, checked as MediaPipe checks a region (`RegionOfInterest`).
    private static func region(_ text: String) throws(UsageError) -> CGRect {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard values.count == 4, let x = values[0], let y = values[1], let width = values[2], let height = values[3] else {
            throw UsageError("--roi expects four numbers X,Y,W,H, got '\(text)'")
        }
        let rect = CGRect(x: x, y: y, width: width, height: height)
        do {
            _ = try RegionOfInterest(rect)
        } catch {
            throw UsageError(
                "--roi must lie inside the image (X, Y, W, H normalized to [0, 1]): \(error.reason) Given '\(text)'.")
        }
        return rect
    }

    /// MediaPipe's rotation_degrees as the orientation that applies it.
    private static func orientation(_ text: String) throws(UsageError) -> ImageOrientation {
        let degrees = try ValueParser.integer("rotation")(text)
        guard degrees % 90 == 0 else {
            throw UsageError("--rotation: Expected rotation to be a multiple of 90°, got \(degrees).")
        }
        return [ImageOrientation.up, .right, .down, .left][((degrees / 90) % 4 + 4) % 4]
    }
}
