import Foundation
import VisionTasks

/// `vision-tasks classify`: classifies image files and folders with an `ImageClassifier`.
enum ClassifyCommand {
    static let help = """
    USAGE: vision-tasks classify --model MODEL [options] IMAGE_OR_FOLDER...

    Classifies JPEG, PNG and WebP images (folders are searched recursively for .jpg, .jpeg,
    .png and .webp files) with a TFLite image classification model, as MediaPipe's
    ImageClassifier does in image mode. A file's EXIF orientation is applied.

    OPTIONS:
    \(ClassifierOptionsParsing.help)
      --roi X,Y,W,H            Region of interest, normalized [0,1], top-left origin, in the
                               stored image's coordinates (as a CGRect).
      --rotation DEG           Rotate the stored pixels clockwise by DEG (a multiple of 90),
                               MediaPipe's rotation_degrees; replaces the EXIF orientation.
      --format FORMAT          table (default), json (one array) or jsonl (one object per line).
      -h, --help               Show this help.

    Each image's result is printed as it is done; an image that cannot be read or classified
    is reported with its path and reason and the others are still classified.
    EXIT STATUS: 0 when every image was classified, 1 when any failed or the model could not be
    loaded (or refused these options), 2 for a usage error (an unknown option, a malformed or
    out-of-range value, no image, a folder without images).
    """

    static let valueOptions = ClassifierOptionsParsing.valueOptions.union(["roi", "rotation", "format"])

    /// Runs the command; returns the exit status.
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try ParsedArguments(arguments, valueOptions: valueOptions, flags: ["help", "h"])
        if parsed.flags.contains("help") || parsed.flags.contains("h") {
            print(help)
            return 0
        }
        let format = try OutputFormat(parsed)
        let orientation = try rotation(parsed)
        let roi = try regionOfInterest(parsed)
        let options = try ClassifierOptionsParsing.options(parsed, mode: .image)
        guard !parsed.positionals.isEmpty else { throw UsageError("no image given") }
        let paths = try ImageFiles.expand(parsed.positionals)
        let classifier: ImageClassifier
        do {
            classifier = try ImageClassifier(options: options)
        } catch {
            reportError(error)
            return 1
        }
        return OutcomePrinter.run(paths, format: format) { path in
            classify(path, classifier: classifier, orientation: orientation, roi: roi)
        }
    }

    private static func classify(_ path: String, classifier: ImageClassifier, orientation: ImageOrientation?,
                                 roi: CGRect) -> ImageOutcome.Payload {
        do {
            let image = try MPImage(contentsOfFile: path, orientation: orientation)
            return .classifications(try classifier.classify(image: image, regionOfInterest: roi).classificationResult.classifications)
        } catch {
            return .error(error as? TasksError ?? TasksError(.unknownError, "\(path): \(error)"))
        }
    }

    /// MediaPipe's rotation_degrees as the orientation that applies it (nil: keep the file's).
    private static func rotation(_ parsed: ParsedArguments) throws(UsageError) -> ImageOrientation? {
        guard parsed.value("rotation") != nil else { return nil }
        let degrees = try parsed.int("rotation", default: 0)
        guard degrees % 90 == 0 else { throw UsageError("--rotation: Expected rotation to be a multiple of 90°, got \(degrees).") }
        return [ImageOrientation.up, .right, .down, .left][((degrees / 90) % 4 + 4) % 4]
    }

    private static func regionOfInterest(_ parsed: ParsedArguments) throws(UsageError) -> CGRect {
        guard let text = parsed.value("roi") else { return .zero }
        let values = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4, let x = values[0], let y = values[1], let width = values[2], let height = values[3] else {
            throw UsageError("--roi expects four numbers X,Y,W,H, got '\(text)'")
        }
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= 1, y + height <= 1 else {
            throw UsageError("--roi must lie inside the image, normalized: 0 <= X, 0 <= Y, W > 0, H > 0, X + W <= 1, Y + H <= 1; got '\(text)'")
        }
        return CGRect(x: x, y: y, width: width, height: height)
    }
}
