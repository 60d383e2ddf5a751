import Foundation
import Testing
import TestSupport

/// `vision-tasks live`: raw frames piped into its stdin by ffmpeg, the clip file itself, an
/// endless lavfi source stopped with Ctrl-C (SIGINT), and sources that fail.
@Suite("live", .enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct LiveCommandTests {
    static let model = VideoClipMaker.model

    /// The options that make `pipe:0` a stream of raw 320x240 RGB frames at 10 fps.
    static let rawPipeOptions = ["--input-format", "rawvideo", "--video-size", "\(VideoClipMaker.width)x\(VideoClipMaker.height)",
                                 "--pixel-format", "rgb24", "--framerate", "10"]

    /// Checks what `live` printed for the 40-frame burger-then-sparrow clip: results with
    /// increasing timestamps of frames of the clip, each with the photo shown then, and the
    /// statistics: 40 frames received, each processed or dropped, one line per processed frame.
    @discardableResult
    func expectClipResults(_ lines: [String], context: String,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> (results: [VideoOutput.Frame], statistics: VideoOutput.Statistics) {
        let (results, statistics) = try VideoOutput.live(lines, context: context, sourceLocation: sourceLocation)
        let timestamps = results.map(\.timestampInMilliseconds)
        VideoOutput.expectIncreasing(timestamps, sourceLocation: sourceLocation)
        #expect(timestamps.allSatisfy { $0 % 100 == 0 && (0...3900).contains($0) }, "\(timestamps)", sourceLocation: sourceLocation)
        #expect(timestamps.first == 0, "the first frame finds the classifier idle: \(timestamps)", sourceLocation: sourceLocation)
        VideoOutput.expectTopCategories(results, switchTime: 2000, sourceLocation: sourceLocation)
        #expect(statistics.framesReceived == 40, "\(statistics)", sourceLocation: sourceLocation)
        #expect(statistics.framesProcessed + statistics.framesDropped == statistics.framesReceived, "\(statistics)",
                sourceLocation: sourceLocation)
        #expect(results.count == statistics.framesProcessed, "one line per processed frame: \(results.count), \(statistics)",
                sourceLocation: sourceLocation)
        #expect((statistics.lastLatencyInMilliseconds ?? -1) > 0, "\(statistics)", sourceLocation: sourceLocation)
        return (results, statistics)
    }

    @Test("raw frames piped from ffmpeg at the clip's pace: every result as it arrives, then the statistics")
    func pacedPipe() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: directory)

        let feeder = try RawFrameFeeder(clip: clip, paced: true)
        let live = try StreamingToolRun(["live", "pipe:0", "--model", Self.model, "--format", "jsonl", "--max-results", "1"]
            + Self.rawPipeOptions, standardInput: feeder.pipe)
        let outcome = try await live.finish(within: 60)
        #expect(await feeder.finish(within: 10) == 0, "ffmpeg fed the whole clip")
        #expect(outcome.status == 0 && outcome.reason == .exit, "\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")
        let (results, _) = try expectClipResults(outcome.stdoutLines, context: "\(outcome)")
        // At 10 fps one classification (~15 ms) keeps up: both photos are seen.
        #expect(results.contains { $0.timestampInMilliseconds < 2000 } && results.contains { $0.timestampInMilliseconds >= 2000 },
                "\(outcome)")
        #expect(results.count >= 20, "paced at 10 fps, few frames wait: \(outcome)")

        // Printed as they arrive: each result comes about one classification after its frame, so
        // (arrival - frame time) is nearly the same for all lines; printing in batches makes it
        // jump by the batch's length.
        let lag = zip(outcome.lines, results).map { line, result in line.arrival - Double(result.timestampInMilliseconds) / 1000 }
        let spread = (lag.max() ?? 0) - (lag.min() ?? 0)
        let arrivals = outcome.lines.map { String(format: "%.2f", $0.arrival) }.joined(separator: " ")
        #expect(spread < 1.0, "arrival minus frame time varies by \(String(format: "%.2f", spread)) s; arrivals: \(arrivals)")
    }

    @Test("raw frames piped as fast as ffmpeg decodes: waiting frames are dropped, the counts add up")
    func unpacedPipe() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.webm, in: directory)

        let feeder = try RawFrameFeeder(clip: clip, paced: false)
        let live = try StreamingToolRun(["live", "pipe:0", "--model", Self.model, "--format", "jsonl"] + Self.rawPipeOptions,
                                        standardInput: feeder.pipe)
        let outcome = try await live.finish(within: 60)
        #expect(await feeder.finish(within: 10) == 0, "ffmpeg fed the whole clip")
        #expect(outcome.status == 0 && outcome.reason == .exit, "\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")
        let (results, _) = try expectClipResults(outcome.stdoutLines, context: "\(outcome)")
        #expect(results.allSatisfy { $0.classifications.first?.categories.count == 5 }, "default --max-results 5")
    }

    @Test("the clip file itself, jsonl: results in order with the right categories, then the statistics",
          arguments: [VideoClipMaker.mp4, VideoClipMaker.webm])
    func clipFileJSONL(format: VideoClipMaker.Format) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(format, in: directory)

        let run = try await VisionTasksTool.run(["live", clip.path, "--model", Self.model, "--format", "jsonl", "--max-results", "3"])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let (results, _) = try expectClipResults(run.stdoutLines, context: "\(run)")
        #expect(results.allSatisfy { $0.classifications.first?.categories.count == 3 }, "--max-results 3")
    }

    @Test("the clip file itself, table: a line per result, then 'frames received 40, processed P, dropped D, last latency L ms'")
    func clipFileTable() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: directory)

        let run = try await VisionTasksTool.run(["live", clip.path, "--model", Self.model])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let lines = run.stdoutLines
        let last = try #require(lines.last, "\(run)")
        let match = try #require(last.wholeMatch(of: /frames received (\d+), processed (\d+), dropped (\d+), last latency (\d+\.\d) ms/),
                                 "statistics line: \(last)")
        let (received, processed, dropped) = (Int(match.1) ?? -1, Int(match.2) ?? -1, Int(match.3) ?? -1)
        #expect(received == 40 && processed + dropped == received, "\(last)")
        let frames = lines.dropLast().compactMap(VideoOutput.tableFrame)
        #expect(frames.count == lines.count - 1, "every other line is a result line:\n\(run)")
        #expect(frames.count == processed, "\(run)")
        VideoOutput.expectIncreasing(frames.map(\.timestampInMilliseconds))
        for frame in frames {
            let expected = VideoOutput.expectedTop(at: frame.timestampInMilliseconds, switchTime: 2000)
            #expect(frame.topIndex == expected.index && frame.topName == expected.name && frame.categoryCount == 5, "\(frame)")
        }
    }

    @Test("Ctrl-C on an endless source: exit 0 within a few seconds, with the statistics", arguments: ["jsonl", "table"])
    func interrupt(format: String) async throws {
        let live = try StreamingToolRun(["live", "testsrc=size=320x240:rate=30", "--input-format", "lavfi", "--model", Self.model,
                                         "--format", format, "--max-results", "1"])
        // Interrupt once frames are flowing (the SIGINT handler is set up by then), 1.5 s in at the earliest.
        let flowing = await live.waitForOutput(seconds: 30)
        if live.elapsed < 1.5 { try await Task.sleep(for: .seconds(1.5 - live.elapsed)) }
        let interruptedAt = live.elapsed
        live.interrupt()
        let outcome = try await live.finish(within: 30)
        try #require(flowing, "no result within 30 s\n\(outcome)")
        #expect(outcome.reason == .exit && outcome.status == 0, "\(outcome)")
        #expect(outcome.duration - interruptedAt < 3, "stopped \(outcome.duration - interruptedAt) s after SIGINT\n\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")

        let received: Int, processed: Int, dropped: Int, resultCount: Int
        if format == "jsonl" {
            let (results, statistics) = try VideoOutput.live(outcome.stdoutLines, context: "\(outcome)")
            VideoOutput.expectIncreasing(results.map(\.timestampInMilliseconds))
            (received, processed, dropped, resultCount) = (statistics.framesReceived, statistics.framesProcessed,
                                                           statistics.framesDropped, results.count)
        } else {
            let last = outcome.stdoutLines.last ?? ""
            let match = try #require(last.wholeMatch(of: /frames received (\d+), processed (\d+), dropped (\d+), last latency \d+\.\d ms/),
                                     "statistics line: \(outcome)")
            (received, processed, dropped) = (Int(match.1) ?? -1, Int(match.2) ?? -1, Int(match.3) ?? -1)
            let frames = outcome.stdoutLines.dropLast().compactMap(VideoOutput.tableFrame)
            #expect(frames.count == outcome.lines.count - 1, "\(outcome)")
            resultCount = frames.count
        }
        #expect(received > 0 && processed > 0, "\(outcome.stdoutLines.last ?? "")")
        #expect(processed + dropped == received, "\(outcome.stdoutLines.last ?? "")")
        #expect(resultCount == processed, "\(outcome.stdoutLines.last ?? "")")
    }

    @Test("Ctrl-C while the source waits for data (a stalled pipe) stops at once, exit 0")
    func interruptWhileWaiting() async throws {
        let frame = try await VideoClipMaker.rawFrame("burger.jpg")
        try #require(frame.count == VideoClipMaker.width * VideoClipMaker.height * 3)
        let input = Pipe()
        let live = try StreamingToolRun(["live", "pipe:0", "--model", Self.model, "--format", "jsonl", "--timeout", "8000"]
            + Self.rawPipeOptions, standardInput: input)
        let writer = input.fileHandleForWriting
        defer { try? writer.close() }
        // Five frames, then nothing (the pipe stays open): the tool waits in its read.
        let written = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<5 { try? writer.write(contentsOf: frame) }
            written.signal()
        }.start()
        #expect(await StreamingToolRun.wait(for: written, seconds: 30), "the tool read the five frames")
        try await Task.sleep(for: .seconds(1.5))
        let interruptedAt = live.elapsed
        live.interrupt()
        let outcome = try await live.finish(within: 30)
        #expect(outcome.reason == .exit, "\(outcome)")
        let (results, statistics) = try VideoOutput.live(outcome.stdoutLines, context: "\(outcome)")
        #expect(statistics.framesReceived == 5, "\(statistics)")
        #expect(results.count == statistics.framesProcessed && statistics.framesProcessed + statistics.framesDropped == 5)
        VideoOutput.expectTopCategories(results, switchTime: .max)
        #expect(outcome.duration - interruptedAt < 3,
                "stopped \(String(format: "%.1f", outcome.duration - interruptedAt)) s after SIGINT (sent \(String(format: "%.1f", interruptedAt)) s in)")
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")
    }

    @Test("a missing camera: exit 1, the message names it")
    func missingCamera() async throws {
        let camera = (0..<64).map { "/dev/video\($0)" }.first { !FileManager.default.fileExists(atPath: $0) } ?? "/dev/video-none"
        let run = try await VisionTasksTool.run(["live", camera, "--model", Self.model])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics == ["error: NOT_FOUND: Video source not found: '\(camera)' (No such file or directory)."], "\(run)")
    }

    @Test("--timeout 1000 with a source that never sends: exit 1 after about 1 s, naming the source", arguments: ["udp", "tcp"])
    func unreachableSource(kind: String) async throws {
        try await expectGivesUpOnSilentSource(command: "live", kind: kind, model: Self.model)
    }

    @Test("--format json is a usage error (exit 2)")
    func formatJSON() async throws {
        let run = try await VisionTasksTool.run(["live", "/dev/video0", "--model", Self.model, "--format", "json"])
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics == ["error: --format must be table or jsonl", "Run `vision-tasks live --help` for usage."], "\(run)")
    }
}

/// `live --help`; needs neither ffmpeg nor the test data.
struct LiveCommandHelpTests {
    @Test("live --help lists every option, exit 0", arguments: [["--help"], ["-h"], ["/dev/video0", "--help"]])
    func help(arguments: [String]) async throws {
        let run = try await VisionTasksTool.run(["live"] + arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        #expect(run.stdoutLines.first == "USAGE: vision-tasks live SOURCE --model MODEL [options]")
        #expect(VideoCommandHelpTests.listedOptions(run.stdoutLines) == Self.helpOptions, "\(run)")
        #expect(run.stdout.contains("EXIT STATUS: 0 at the end of the stream or on Ctrl-C, 1 when the model or source could not"))
        #expect(run.stdout.contains("2 for a usage error"))
    }

    /// The option names `live --help` lists, in order.
    static let helpOptions = [
        "--model", "--max-results", "--score-threshold", "--allow", "--deny", "--locale", "--threads", "--roi", "--rotation",
        "--format", "--input-format", "--video-size", "--pixel-format", "--framerate", "--timeout", "--verbose", "-h", "--help",
    ]

    @Test("every option live --help lists is accepted", arguments: helpOptions.filter { $0.hasPrefix("--") && $0 != "--help" })
    func listedOptionIsAccepted(option: String) async throws {
        let run = try await VisionTasksTool.run(["live", "\(option)=1"])
        #expect(run.status == 2, "no source given: \(run)")
        #expect(!run.stderr.contains("unknown option"), "\(run)")
    }
}
