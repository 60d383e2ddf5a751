import Foundation
import ImageTasks
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
            out-of-range value, no image, a folder without images). With --files-from, images that fail
            leave the status 0 (each has its error line, so that Spark's RDD.pipe does not fail and retry
            the partition); it is 1 when the model cannot be loaded or the list cannot be read.
            """)

    static let format = OutputFormat.option(
        allowing: OutputFormat.records,
        help: "table, json (one array), jsonl (one object per line) or csv (a record per "
            + "image and category).")

    static let optionTable =
        ClassifierOptionGroup.optionTable + ImageProcessingOptionGroup.optionTable
        + [format.definition, ReportOption.report.definition, StandardOptions.verbose.definition, DecodingMode.option.definition]
        + BatchOptionGroup.optionTable

    let classifier: ClassifierOptionGroup
    let imageProcessing: ImageProcessingOptionGroup
    let format: OutputFormat
    /// The HTML report's path (`--report`), if any.
    let report: String?
    let verbose: Bool
    let batch: BatchOptionGroup
    let decoding: DecodingMode
    /// Whether `--threads` was given (else it is 1 with several workers).
    let threadsGiven: Bool
    /// The image and folder arguments, byte for byte.
    let images: [FileSystemPath]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        imageProcessing = try ImageProcessingOptionGroup(parsed)
        classifier = try ClassifierOptionGroup(parsed)
        report = try parsed.value(ReportOption.report)
        verbose = parsed.isSet(StandardOptions.verbose)
        images = parsed.positionals.map(\.path)
        batch = try BatchOptionGroup(parsed)
        threadsGiven = parsed.contains(ClassifierOptionGroup.threads.definition)
        decoding = try parsed.value(DecodingMode.option)
        format = try batch.format(
            parsed.value(Self.format), given: parsed.contains(Self.format.definition),
            imageArguments: images.count)
    }

    func run() throws(UsageError) -> Int32 {
        guard let source = try BatchRun.source(images: images, options: batch, format: format, output: ClassificationOutput.self)
        else {
            return 1
        }
        let imageProcessing = imageProcessing
        var run = BatchRun(source: source, format: format, options: batch, verbose: verbose)
        if let path = self.report {
            guard
                let opened = ReportOption.open({ () throws(TasksError) in
                    try ImageReport(
                        path: path, command: "classify", imageCount: source.knownCount ?? 0,
                        settings: self.classifier.reportSettings + imageProcessing.reportSettings,
                        orientation: imageProcessing.orientation)
                })
            else { return 1 }
            run.report = opened
        }
        let processing = imageProcessing.processing(decoding: decoding)
        return run.run { workers throws(TasksError) in
            let options = self.classifier.options(mode: .image)
            if workers > 1 && !threadsGiven { options.baseOptions.threadCount = 1 }
            return try ClassificationTask(options: options, processing: processing)
        }
    }
}
