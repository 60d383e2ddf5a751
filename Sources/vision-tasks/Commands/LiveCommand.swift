import Dispatch
import Foundation
import ImageTasks
import Synchronization
import TasksCommon
import VideoInput
import VideoTasks
import VisionTasks

/// `vision-tasks live`: classifies a camera or stream in live-stream running mode.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Classify a camera, stream or pipe as frames arrive (live-stream running mode).",
        usage: "vision-tasks live SOURCE --model MODEL [options]",
        discussion: """
            Reads frames from a camera (/dev/video0), an FFmpeg URL or input (udp://..., a lavfi
            graph), a file, or a pipe of raw frames (pipe:0 with --input-format rawvideo), and sends
            them to MediaPipe's ImageClassifier in live-stream mode: frames arriving while the model is
            busy replace the waiting frame, which is dropped. Results are printed as they arrive; at the
            end, the frames received, processed and dropped. Stops at the end of the stream or on Ctrl-C.
            """,
        epilogue: """
            EXIT STATUS: 0 at the end of the stream or on Ctrl-C, 1 when the model or source could not
            be used (a source that stalls longer than --timeout is an error) or a frame could not be
            classified, 2 for a usage error.
            """)

    static let format = OutputFormat.option(
        allowing: [.table, .jsonl],
        help: "table or jsonl: one {\"timestampInMilliseconds\", \"classifications\"} (or \"error\") per result, then one "
            + "{\"statistics\": {...}}.")

    static let optionTable =
        ClassifierOptionGroup.optionTable + ImageProcessingOptionGroup.optionTable + [format.definition]
        + VideoSourceOptionGroup.optionTable + [StandardOptions.verbose.definition]

    let url: String
    let classifier: ClassifierOptionGroup
    let imageProcessing: ImageProcessingOptionGroup
    let format: OutputFormat
    let source: VideoSourceOptionGroup
    let verbose: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1, let url = parsed.positionals.first else {
            throw UsageError("give exactly one source")
        }
        self.url = url.text
        format = try parsed.value(Self.format)
        imageProcessing = try ImageProcessingOptionGroup(parsed)
        classifier = try ClassifierOptionGroup(parsed)
        source = try VideoSourceOptionGroup(parsed)
        verbose = parsed.isSet(StandardOptions.verbose)
    }

    func run() -> Int32 {
        // The printer may fall behind a fast source (or a stalled stdout): keep the newest results.
        guard
            let (classifier, results) = ModelLoading.load(
                verbose: verbose,
                {
                    try ImageClassifier.liveStream(
                        options: self.classifier.options(mode: .liveStream), bufferingPolicy: .bufferingNewest(256))
                })
        else { return 1 }
        let interruption = Interruption()
        defer { interruption.stop() }
        let printer = FramePrinter(format: format)
        // Prints results as they arrive, counting the frames that failed.
        let failures = FailureCount()
        let printing = Task.detached {
            for await outcome in results {
                if printer.print(outcome.result, timestamp: outcome.timestampInMilliseconds) == nil {
                    failures.value.add(1, ordering: .relaxed)
                }
            }
        }
        var status: Int32 = 0
        do throws(TasksError) {
            let runner = try VideoFrameRunner(
                url: url, options: source.sourceOptions(inferenceThreads: self.classifier.threads, liveStream: true),
                configuration: runConfiguration)
            if let failure = runner.feed(classifier, stopRequested: { interruption.requested }).failure {
                StandardStreams.reportError(failure)
                status = 1
            }
        } catch  where error.code != .cancelledError {
            StandardStreams.reportError(error)
            return 1  // the source never opened: nothing to report
        } catch {
            // Ctrl-C while opening ends the command like Ctrl-C later.
        }
        classifier.close()
        Self.waitFor(printing)
        printer.printStatistics(classifier.liveStreamStatistics)
        return failures.value.load(ordering: .relaxed) > 0 ? 1 : status
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

    /// Every frame of a live source is the newest: a frame whose timestamp does not increase is
    /// moved up 1 ms rather than dropped, and frames are read one at a time (no read-ahead to
    /// go stale). A frame the classifier refuses ends the command.
    private var runConfiguration: VideoRunConfiguration {
        VideoRunConfiguration(
            timestamps: .bump, processing: imageProcessing.processing(decoding: .exact), errors: .stop, readAhead: 0)
    }

    /// Frames whose result was an error, counted by the printing task.
    private final class FailureCount: Sendable {
        let value = Atomic(0)
    }

    /// Waits on this (non-async) thread for `task` to end.
    private static func waitFor(_ task: Task<Void, Never>) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await task.value
            done.signal()
        }
        done.wait()
    }
}
