import Foundation
import VideoInput
import VisionTasks

/// `vision-tasks classify-video`: classifies the frames of a video file in video running mode.
enum ClassifyVideoCommand {
    static let help = """
    USAGE: vision-tasks classify-video VIDEO --model MODEL [--every N | --fps F] [options]

    Decodes a video file or URL with FFmpeg and classifies its frames as MediaPipe's
    ImageClassifier does in video mode, with each frame's presentation timestamp from the
    container (milliseconds). Prints each classified frame, then which category came first
    over which time range.

    OPTIONS:
    \(ClassifierOptionsParsing.help)
      --every N                Classify every Nth decoded frame (default 1: all).
      --fps F                  Classify at most F frames per second of video time.
      --format FORMAT          table (default) or jsonl: one {"timestampInMilliseconds",
                               "classifications"} per frame, then one {"summary": [...]}.
    \(VideoSourceParsing.help)
      -h, --help               Show this help.

    EXIT STATUS: 0 when the video was read to its end (damaged packets are skipped, and a file
    that ends early is classified up to its end, each with a warning on stderr), 1 when the model
    or video could not be read (frames already printed stay valid), 2 for a usage error.
    """

    /// Runs the command; returns the exit status.
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let valueOptions = ClassifierOptionsParsing.valueOptions.union(VideoSourceParsing.valueOptions)
            .union(["every", "fps", "format"])
        let parsed = try ParsedArguments(arguments, valueOptions: valueOptions, flags: ["help", "h"])
        if parsed.flags.contains("help") || parsed.flags.contains("h") {
            print(help)
            return 0
        }
        guard parsed.positionals.count == 1, let video = parsed.positionals.first else {
            throw UsageError("give exactly one video file or URL")
        }
        let format = try OutputFormat(parsed)
        guard format != .json else { throw UsageError("--format must be table or jsonl") }
        let sampler = try FrameSampler(parsed)
        let options = try ClassifierOptionsParsing.options(parsed, mode: .video)
        let sourceOptions = try VideoSourceParsing.options(parsed)
        let classifier: ImageClassifier
        do {
            classifier = try ImageClassifier(options: options)
        } catch {
            reportError(error)
            return 1
        }
        do {
            return classify(try VideoSource(url: video, options: sourceOptions), with: classifier, sampler: sampler, format: format)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 1
        }
    }

    private static func classify(_ source: VideoSource, with classifier: ImageClassifier, sampler: FrameSampler,
                                 format: OutputFormat) -> Int32 {
        var sampler = sampler
        var spans = CategorySpans()
        var status: Int32 = 0
        var last: Int?
        var repeated = 0
        do {
            while let frame = try source.nextFrame() {
                // Video mode needs increasing times; containers may repeat or reorder them, and
                // frames less than 1 ms apart round to the same millisecond.
                if let last, frame.timestampInMilliseconds <= last {
                    repeated += 1
                    continue
                }
                last = frame.timestampInMilliseconds
                guard sampler.take(frame.timestampInMilliseconds) else { continue }
                let image = MPImage(pixels: frame.pixels, orientation: frame.orientation)
                let result = try classifier.classify(videoFrame: image, timestampInMilliseconds: frame.timestampInMilliseconds)
                spans.add(result)
                FramePrinter.print(result, format: format)
            }
        } catch {
            reportError(error)
            status = 1
        }
        warnAboutDamage(source, lastTimestamp: last)
        if repeated > 0 {
            FileHandle.standardError.write(Data(("warning: \(source.url): skipped \(repeated) frame(s) whose timestamp did not "
                + "increase (repeated or reordered in the container, or less than 1 ms apart)\n").utf8))
        }
        FramePrinter.printSummary(spans.spans, format: format)
        return status
    }
}

extension ClassifyVideoCommand {
    /// Says on stderr when the results cover less than the whole video: damaged packets were
    /// skipped, or the frames ended well before the container's duration (a cut file). FFmpeg
    /// players carry on in both cases, and so does this command (exit status 0).
    static func warnAboutDamage(_ source: VideoSource, lastTimestamp: Int?) {
        var warnings: [String] = []
        if source.damagedPacketCount > 0 {
            warnings.append("\(source.damagedPacketCount) damaged packet(s) were skipped")
        }
        let frameInterval = source.frameRate.map { 1000 / max($0, 1) } ?? 100
        if let duration = source.durationInMilliseconds, let lastTimestamp,
           Double(duration - lastTimestamp) > 3 * frameInterval + 100 {
            warnings.append("the frames end at \(lastTimestamp) ms of a \(duration) ms video (is the file cut?)")
        }
        guard !warnings.isEmpty else { return }
        FileHandle.standardError.write(Data("warning: \(source.url): \(warnings.joined(separator: "; ")); "
            .appending("the results cover only the frames that decoded\n").utf8))
    }
}

/// Which decoded frames to classify: every Nth, or at most F per second of video time.
struct FrameSampler {
    private let every: Int
    private let interval: Double?
    private var seen = 0
    private var nextTime: Double?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.value("every") == nil || parsed.value("fps") == nil else { throw UsageError("give --every or --fps, not both") }
        every = try parsed.int("every", default: 1, in: 1...Int.max)
        let fps = try parsed.float("fps", default: 0)
        guard parsed.value("fps") == nil || fps > 0 else { throw UsageError("--fps must be positive, got \(fps)") }
        interval = parsed.value("fps") == nil ? nil : 1000 / Double(fps)
    }

    /// Whether to classify the frame shown at `time` milliseconds.
    mutating func take(_ time: Int) -> Bool {
        defer { seen += 1 }
        guard let interval else { return seen % every == 0 }
        if let next = nextTime, Double(time) < next { return false }
        nextTime = max(nextTime ?? 0, Double(time)) + interval
        return true
    }
}
