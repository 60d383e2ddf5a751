import Foundation
import ImageTasks
import TasksCommon
import VideoInput
import VideoTasks
import VisionTasks

/// `vision-tasks classify-video`: classifies the frames of a video file in video running mode.
struct ClassifyVideoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classify-video",
        abstract: "Classify the frames of a video file (MediaPipe's video running mode).",
        usage: "vision-tasks classify-video VIDEO --model MODEL [--every N | --fps F] [options]",
        discussion: """
            Decodes a video file or URL with FFmpeg and classifies its frames as MediaPipe's
            ImageClassifier does in video mode, with each frame's presentation timestamp from the
            container (milliseconds). Prints each classified frame, then which category came first
            over which time range.
            """,
        epilogue: """
            EXIT STATUS: 0 when the video was read to its end (damaged packets are skipped, and a file
            that ends early is classified up to its end, each with a warning on stderr), 1 when the model
            or video could not be read or a frame could not be classified (frames already printed stay
            valid), 2 for a usage error.
            """)

    static let format = OutputFormat.option(
        allowing: [.table, .jsonl],
        help: "table or jsonl: one {\"timestampInMilliseconds\", \"classifications\"} (or \"error\") per frame, then one "
            + "{\"summary\": [...]}.")

    static let optionTable =
        ClassifierOptionGroup.optionTable + ImageProcessingOptionGroup.optionTable
        + FrameSamplingOptionGroup.optionTable + [format.definition, ReportOption.report.definition]
        + VideoSourceOptionGroup.optionTable
        + [StandardOptions.verbose.definition, BatchOptionGroup.noProgress.definition]

    let video: String
    let classifier: ClassifierOptionGroup
    let imageProcessing: ImageProcessingOptionGroup
    let sampling: FrameSamplingOptionGroup
    let format: OutputFormat
    /// The HTML report's path (`--report`), if any.
    let report: String?
    let source: VideoSourceOptionGroup
    let verbose: Bool
    let progress: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1, let video = parsed.positionals.first else {
            throw UsageError("give exactly one video file or URL")
        }
        self.video = video.text
        format = try parsed.value(Self.format)
        report = try parsed.value(ReportOption.report)
        sampling = try FrameSamplingOptionGroup(parsed)
        imageProcessing = try ImageProcessingOptionGroup(parsed)
        classifier = try ClassifierOptionGroup(parsed)
        source = try VideoSourceOptionGroup(parsed)
        verbose = parsed.isSet(StandardOptions.verbose)
        progress = !parsed.isSet(BatchOptionGroup.noProgress)
    }

    func run() -> Int32 {
        guard
            let classifier = ModelLoading.load(
                verbose: verbose, { try ImageClassifier(options: self.classifier.options(mode: .video)) })
        else { return 1 }
        let runner: VideoFrameRunner
        do throws(TasksError) {
            runner = try VideoFrameRunner(
                url: video,
                options: source.sourceOptions(inferenceThreads: self.classifier.threads, liveStream: false),
                configuration: runConfiguration)
        } catch {
            StandardStreams.reportError(error)
            return 1
        }
        var report: VideoReport?
        if let path = self.report {
            guard
                let created = ReportOption.open({ () throws(TasksError) in
                    try VideoReport(
                        path: path, video: video, settings: reportSettings, orientation: imageProcessing.orientation)
                })
            else { return 1 }
            report = created
        }
        let status = classify(runner, with: classifier, report: report)
        report?.finish()
        return report?.failed == true ? 1 : status
    }

    /// The options' frames of a file: no frame is worth dropping for time, so frames whose
    /// timestamp does not increase are skipped, a frame that fails is printed as an error and the
    /// rest classified, and frames are decoded a few ahead on a thread of their own.
    private var runConfiguration: VideoRunConfiguration {
        VideoRunConfiguration(
            sampling: sampling.sampling, timestamps: .skip, processing: imageProcessing.processing(decoding: .exact),
            errors: .continue, readAhead: 3)
    }

    /// Prints each frame as the runner hands it on (and adds it to the report), then how the run
    /// ended and the summary.
    /// - Returns: the exit status: 1 when a frame failed or the video could not be read to its end.
    private func classify(_ runner: VideoFrameRunner, with classifier: ImageClassifier, report: VideoReport?) -> Int32 {
        let printer = FramePrinter(format: format)
        var spans = CategorySpans()
        var status: Int32 = 0
        var progressLine = ProgressLine(total: runner.source.durationInMilliseconds, requested: progress)
        var classified = 0
        let end = runner.run(classifier) { frame in
            report?.add(frame.result, image: frame.image, timestamp: frame.timestampInMilliseconds)
            progressLine.clear()
            if let result = printer.print(frame.result, timestamp: frame.timestampInMilliseconds) {
                spans.add(result)
            } else {
                status = 1
            }
            classified += 1
            progressLine.update(videoMilliseconds: frame.timestampInMilliseconds, frames: classified)
        }
        progressLine.clear()
        if !VideoRunWarnings.report(end) { status = 1 }
        printer.printSummary(spans.spans)
        return status
    }
}
