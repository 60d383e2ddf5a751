import Dispatch
import Foundation
import Synchronization
import VideoInput
import VisionTasks

/// `vision-tasks live`: classifies a camera or stream in live-stream running mode.
enum LiveCommand {
    static let help = """
    USAGE: vision-tasks live SOURCE --model MODEL [options]

    Reads frames from a camera (/dev/video0), an FFmpeg URL or input (udp://..., a lavfi
    graph), a file, or a pipe of raw frames (pipe:0 with --input-format rawvideo), and sends
    them to MediaPipe's ImageClassifier in live-stream mode: frames arriving while the model is
    busy replace the waiting frame, which is dropped. Results are printed as they arrive; at the
    end, the frames received, processed and dropped. Stops at the end of the stream or on Ctrl-C.

    OPTIONS:
    \(ClassifierOptionsParsing.help)
      --format FORMAT          table (default) or jsonl: one {"timestampInMilliseconds",
                               "classifications"} per result, then one {"statistics": {...}}.
    \(VideoSourceParsing.help)
      -h, --help               Show this help.

    EXIT STATUS: 0 at the end of the stream or on Ctrl-C, 1 when the model or source could not
    be used (a source that stalls longer than --timeout is an error), 2 for a usage error.
    """

    /// Runs the command; returns the exit status.
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let valueOptions = ClassifierOptionsParsing.valueOptions.union(VideoSourceParsing.valueOptions).union(["format"])
        let parsed = try ParsedArguments(arguments, valueOptions: valueOptions, flags: ["help", "h"])
        if parsed.flags.contains("help") || parsed.flags.contains("h") {
            print(help)
            return 0
        }
        guard parsed.positionals.count == 1, let url = parsed.positionals.first else { throw UsageError("give exactly one source") }
        let format = try OutputFormat(parsed)
        guard format != .json else { throw UsageError("--format must be table or jsonl") }
        let options = try ClassifierOptionsParsing.options(parsed, mode: .liveStream)
        let sourceOptions = try VideoSourceParsing.options(parsed)
        let classifier: ImageClassifier
        let results: AsyncStream<LiveStreamResult>
        do {
            // The printer may fall behind a fast source (or a stalled stdout): keep the newest results.
            (classifier, results) = try ImageClassifier.liveStream(options: options, bufferingPolicy: .bufferingNewest(256))
        } catch {
            reportError(error)
            return 1
        }
        let interruption = Interruption()
        defer { interruption.stop() }
        let printing = Task.detached { for await outcome in results { report(outcome, format: format) } }
        var status: Int32 = 0
        do throws(TasksError) {
            status = feed(try VideoSource(url: url, options: sourceOptions), to: classifier, interruption: interruption)
        } catch where error.code != .cancelledError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 1  // the source never opened: nothing to report
        } catch {
            // Ctrl-C while opening ends the command like Ctrl-C later.
        }
        classifier.close()
        waitFor(printing)
        printStatistics(classifier.liveStreamStatistics, format: format)
        return status
    }

    /// Ctrl-C: stops the frame loop and cancels a read that is waiting for data.
    private final class Interruption {
        private final class Flag: Sendable {
            let value = Atomic(false)
        }

        private let flag = Flag()
        private let signals: any DispatchSourceSignal

        /// Whether Ctrl-C was pressed.
        var requested: Bool { flag.value.load(ordering: .relaxed) }

        init() {
            signal(SIGINT, SIG_IGN)
            signals = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            signals.setEventHandler { [flag] in
                flag.value.store(true, ordering: .relaxed)
                VideoSource.cancelAllBlockingReads()
            }
            signals.resume()
        }

        func stop() { signals.cancel() }
    }

    /// Sends frames until the end of the stream, an error, or Ctrl-C.
    private static func feed(_ source: VideoSource, to classifier: ImageClassifier, interruption: Interruption) -> Int32 {
        var last = Int.min
        do {
            while !interruption.requested, let frame = try source.nextFrame() {
                // Live sources may repeat a timestamp; MediaPipe needs them strictly increasing.
                let timestamp = max(frame.timestampInMilliseconds, last == .min || last == .max ? last : last + 1)
                last = timestamp
                try classifier.classifyAsync(image: MPImage(pixels: frame.pixels, orientation: frame.orientation),
                                             timestampInMilliseconds: timestamp)
            }
            return 0
        } catch {
            // Ctrl-C while waiting for a frame is the normal end.
            guard (error as? TasksError)?.code != .cancelledError else { return 0 }
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 1
        }
    }

    private static func report(_ outcome: LiveStreamResult, format: OutputFormat) {
        switch outcome.result {
        case .success(let result): FramePrinter.print(result, format: format)
        case .failure(let error):
            FileHandle.standardError.write(Data("\(outcome.timestampInMilliseconds) ms: error: \(error)\n".utf8))
        }
    }

    private static func waitFor(_ task: Task<Void, Never>) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await task.value
            done.signal()
        }
        done.wait()
    }

    private struct StatisticsJSON: Encodable {
        let framesReceived, framesProcessed, framesDropped: Int
        let lastLatencyInMilliseconds: Double?
    }

    private static func printStatistics(_ statistics: LiveStreamStatistics, format: OutputFormat) {
        let json = StatisticsJSON(framesReceived: statistics.framesReceived, framesProcessed: statistics.framesProcessed,
                                  framesDropped: statistics.framesDropped,
                                  lastLatencyInMilliseconds: statistics.lastLatencyInMilliseconds)
        guard format == .table else {
            emit(OutcomePrinter.json(["statistics": json]))
            return
        }
        let latency = statistics.lastLatencyInMilliseconds.map { String(format: ", last latency %.1f ms", $0) } ?? ""
        emit("frames received \(statistics.framesReceived), processed \(statistics.framesProcessed), "
            + "dropped \(statistics.framesDropped)\(latency)")
    }
}
