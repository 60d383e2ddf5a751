import Foundation
import ImageTasks
import TasksCommon
import VideoInput
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
        // Frames are decoded on a thread of their own, a few ahead of the classifier.
        let reader = VideoFrameReader(
            url: video, options: source.sourceOptions(inferenceThreads: self.classifier.threads, liveStream: false))
        switch reader.waitForOpen() {
        case .failure(let error):
            StandardStreams.reportError(error)
            return 1
        case .success(let facts):
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
            let status = classify(reader, facts: facts, with: classifier, report: report)
            report?.finish()
            return report?.failed == true ? 1 : status
        }
    }

    private func classify(
        _ reader: VideoFrameReader, facts: VideoFrameReader.Facts, with classifier: ImageClassifier, report: VideoReport?
    ) -> Int32 {
        let printer = FramePrinter(format: format)
        var sampler = sampling.sampler
        var spans = CategorySpans()
        var status: Int32 = 0
        var timestamps = FrameTimestamps(.skip)
        var progressLine = ProgressLine(total: facts.durationInMilliseconds, requested: progress)
        var classified = 0
        do throws(TasksError) {
            while let frame = reader.next() {
                guard timestamps.admit(frame.timestampInMilliseconds) != nil else { continue }
                guard sampler.take(frame.timestampInMilliseconds) else { continue }
                let image = imageProcessing.processing(decoding: .exact).oriented(frame.image)
                let outcome: Result<ImageClassifierResult, TasksError>
                do {
                    outcome = .success(
                        try classifier.classify(
                            videoFrame: image, timestampInMilliseconds: frame.timestampInMilliseconds,
                            regionOfInterest: imageProcessing.regionOfInterest))
                } catch {
                    outcome = .failure(.wrapping(error))
                }
                report?.add(outcome, image: image, timestamp: frame.timestampInMilliseconds)
                progressLine.clear()
                if let result = printer.print(outcome, timestamp: frame.timestampInMilliseconds) {
                    spans.add(result)
                } else {
                    status = 1
                }
                classified += 1
                progressLine.update(videoMilliseconds: frame.timestampInMilliseconds, frames: classified)
            }
            if let failure = reader.end.failure { throw failure }
        } catch {
            progressLine.clear()
            StandardStreams.reportError(error)
            status = 1
        }
        progressLine.clear()
        // A failed read's error already counts the damaged packets.
        if reader.end.failure == nil { Self.warnAboutDamage(reader.end.facts ?? facts, lastTimestamp: timestamps.last) }
        if timestamps.adjusted > 0 {
            StandardStreams.warn(
                "warning: \(TableText.escaped(facts.url)): skipped \(timestamps.adjusted) frame(s) whose timestamp did not "
                    + "increase (repeated or reordered in the container, or less than 1 ms apart)")
        }
        printer.printSummary(spans.spans)
        return status
    }

    /// Says on stderr when the results cover less than the whole video: damaged packets were
    /// skipped, or the frames ended well before the container's duration (a cut file). FFmpeg
    /// players carry on in both cases, and so does this command (exit status 0).
    static func warnAboutDamage(_ source: VideoFrameReader.Facts, lastTimestamp: Int?) {
        var warnings: [String] = []
        if source.damagedPacketCount > 0 {
            warnings.append("\(source.damagedPacketCount) damaged packet(s) were skipped")
        }
        let frameInterval = source.frameRate.map { 1000 / max($0, 1) } ?? 100
        // Doubles: damaged containers can give any Int here, and the difference must not trap.
        if let duration = source.durationInMilliseconds, let lastTimestamp,
            Double(duration) - Double(lastTimestamp) > 3 * frameInterval + 100
        {
            warnings.append("the frames end at \(lastTimestamp) ms of a \(duration) ms video (is the file cut?)")
        }
        guard !warnings.isEmpty else { return }
        StandardStreams.warn(
            "warning: \(TableText.escaped(source.url)): \(warnings.joined(separator: "; ")); "
                + "the results cover only the frames that decoded")
    }
}
