import Foundation
import Imaging
import TasksCommon
import VisionTasks

/// `vision-tasks classify`: classifies image files and folders with an `ImageClassifier`.
struct ClassifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify",
        abstract: "Classify image files and folders with a .tflite model (MediaPipe ImageClassifier).",
        usage: "vision-tasks classify --model MODEL [options] IMAGE_OR_FOLDER...",
        discussion: """
            Classifies JPEG, PNG and WebP images (folders are searched recursively for .jpg, .jpeg,
            .png and .webp files) with a TFLite image classification model, as MediaPipe's
            ImageClassifier does in image mode. A file's EXIF orientation is applied.
            """,
        epilogue: """
            Each image's result is printed as it is done; an image that cannot be read or classified
            is reported with its path and reason and the others are still classified.
            EXIT STATUS: 0 when every image was classified, 1 when any failed or the model could not be
            loaded (or refused these options), 2 for a usage error (an unknown option, a malformed or
            out-of-range value, no image, a folder without images).
            """)

    static let format = OutputFormat.option(
        allowing: OutputFormat.allCases,
        help: "table, json (one array), jsonl (one object per line) or csv (a record per "
            + "image and category).")

    static let optionTable =
        ClassifierOptionGroup.optionTable + ImageProcessingOptionGroup.optionTable
        + [format.definition, ReportOption.report.definition, StandardOptions.verbose.definition]

    let classifier: ClassifierOptionGroup
    let imageProcessing: ImageProcessingOptionGroup
    let format: OutputFormat
    /// The HTML report's path (`--report`), if any.
    let report: String?
    let verbose: Bool
    /// The image and folder arguments, byte for byte.
    let images: [FileSystemPath]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        format = try parsed.value(Self.format)
        imageProcessing = try ImageProcessingOptionGroup(parsed)
        classifier = try ClassifierOptionGroup(parsed)
        report = try parsed.value(ReportOption.report)
        verbose = parsed.isSet(StandardOptions.verbose)
        images = parsed.positionals.map(\.path)
        guard !images.isEmpty else { throw UsageError("no image given") }
    }

    func run() throws(UsageError) -> Int32 {
        let inputs = try ImageFileList.expand(images)
        guard
            let classifier = ModelLoading.load(
                verbose: verbose, { try ImageClassifier(options: self.classifier.options(mode: .image)) })
        else { return 1 }
        var report: ImageReport?
        if let path = self.report {
            guard
                let opened = ReportOption.open({ () throws(TasksError) in
                    try ImageReport(
                        path: path, command: "classify", imageCount: inputs.count,
                        settings: self.classifier.reportSettings + imageProcessing.reportSettings,
                        orientation: imageProcessing.orientation)
                })
            else { return 1 }
            report = opened
        }
        return OutcomePrinter.run(inputs, format: format, report: report) { path in
            do {
                let decoded = try ImageDecoder.decode(file: path)
                let image = MPImage(pixels: decoded.pixels, orientation: imageProcessing.orientation ?? decoded.exifOrientation)
                let result = try classifier.classify(image: image, regionOfInterest: imageProcessing.regionOfInterest)
                return .classifications(result.classificationResult.classifications)
            } catch {
                return .error(TasksError.wrapping(error, subject: .file(path.description)))
            }
        }
    }
}
