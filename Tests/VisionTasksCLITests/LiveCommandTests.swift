import Foundation
import TestSupport
import Testing

/// `vision-tasks live`: raw frames piped into its stdin by ffmpeg, the clip file itself, an
/// endless lavfi source stopped with Ctrl-C (SIGINT), and sources that fail.
@Suite("live", .enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct LiveCommandTests {
    static let model = VideoClipMaker.model

    /// The options that make `pipe:0` a stream of raw 320x240 RGB frames at 10 fps.
    static let rawPipeOptions = [
        "--input-format", "rawvideo", "--video-size", "\(VideoClipMaker.width)x\(VideoClipMaker.height)",
        "--pixel-format", "rgb24", "--framerate", "10",
    ]

    /// Checks what `live` printed for the 40-frame burger-then-sparrow clip: results with
    /// increasing timestamps of frames of the clip, each with the photo shown then, and the
    /// statistics: 40 frames received, each processed or dropped, one line per processed frame.
    @discardableResult
    func expectClipResults(
        _ lines: [String], context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (results: [VideoOutput.Frame], statistics: VideoOutput.Statistics) {
        let (results, statistics) = try VideoOutput.live(lines, context: context, sourceLocation: sourceLocation)
        let timestamps = results.map(\.timestampInMilliseconds)
        expectIncreasing(timestamps, sourceLocation: sourceLocation)
        #expect(
            timestamps.allSatisfy { $0 % 100 == 0 && (0...3900).contains($0) }, "\(timestamps)", sourceLocation: sourceLocation)
        #expect(timestamps.first == 0, "the first frame finds the classifier idle: \(timestamps)", sourceLocation: sourceLocation)
        VideoOutput.expectTopCategories(results, switchTime: 2000, sourceLocation: sourceLocation)
        #expect(statistics.framesReceived == 40, "\(statistics)", sourceLocation: sourceLocation)
        #expect(
            statistics.framesProcessed + statistics.framesDropped == statistics.framesReceived, "\(statistics)",
            sourceLocation: sourceLocation)
        #expect(
            results.count == statistics.framesProcessed, "one line per processed frame: \(results.count), \(statistics)",
            sourceLocation: sourceLocation)
        #expect((statistics.lastLatencyInMilliseconds ?? -1) > 0, "\(statistics)", sourceLocation: sourceLocation)
        return (results, statistics)
    }

    /// The clip's frames, decoded by ffmpeg, written to the tool's stdin one at a time: each
    /// frame is sent once the previous one's result has been printed. So every frame finds
    /// the classifier idle and is classified, and a tool that held its results back (printing
    /// them in batches, or at the end) would stall the exchange and fail.
    @Test("raw frames piped one at a time: each result printed before the next frame is sent, then the statistics")
    func framesOneAtATime() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: directory)
        let frames = try await VideoClipMaker.ffmpeg(["-i", clip.path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        let frameSize = VideoClipMaker.width * VideoClipMaker.height * 3
        try #require(frames.count == 40 * frameSize, "ffmpeg decoded \(frames.count) bytes")

        let input = Pipe()
        // The frames are sent by a thread of the test's own, but a read timeout of 10 minutes
        // keeps a stalled exchange a test failure rather than a timeout of the tool.
        let live = try StreamingToolRun(
            [
                "live", "pipe:0", "--model", Self.model, "--format", "jsonl", "--max-results", "1",
                "--timeout", "600000",
            ] + Self.rawPipeOptions, standardInput: input)
        let writer = input.fileHandleForWriting
        // Sent from a thread of its own, which sees each result line as it arrives: however late
        // the test itself resumes on a busy machine, the next frame is not late.
        let answered = await Waiting.onOwnThread {
            var answered = 0
            for index in 0..<40 {
                let frame = frames.subdata(in: index * frameSize..<(index + 1) * frameSize)
                guard (try? writer.write(contentsOf: frame)) != nil, live.blockingWaitForLines(index + 1, safetyNet: 120) else {
                    break
                }
                answered += 1
            }
            try? writer.close()
            return answered
        }
        let outcome = try await live.finish(within: 120)
        #expect(
            answered == 40,
            "the result of frame \(answered) was not printed before the next frame was sent (waited 120 s)\n\(outcome)")
        #expect(outcome.status == 0 && outcome.reason == .exit, "\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")
        let (results, _) = try expectClipResults(outcome.stdoutLines, context: "\(outcome)")
        // Every frame finds the classifier idle: both photos are seen.
        #expect(
            results.contains { $0.timestampInMilliseconds < 2000 } && results.contains { $0.timestampInMilliseconds >= 2000 },
            "\(outcome)")
        #expect(results.count >= 20, "one frame at a time, few frames wait: \(outcome)")
    }

    @Test("raw frames piped as fast as ffmpeg decodes: waiting frames are dropped, the counts add up")
    func unpacedPipe() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.webm, in: directory)

        let feeder = try RawFrameFeeder(clip: clip)
        // A read timeout of 10 minutes: a busy machine may hold ffmpeg back for seconds.
        let live = try StreamingToolRun(
            ["live", "pipe:0", "--model", Self.model, "--format", "jsonl", "--timeout", "600000"]
                + Self.rawPipeOptions, standardInput: feeder.pipe)
        let outcome = try await live.finish(within: 120)
        #expect(await feeder.finish(within: 30) == 0, "ffmpeg fed the whole clip")
        #expect(outcome.status == 0 && outcome.reason == .exit, "\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")
        let (results, _) = try expectClipResults(outcome.stdoutLines, context: "\(outcome)")
        #expect(results.allSatisfy { $0.classifications.first?.categories.count == 5 }, "default --max-results 5")
    }

    @Test(
        "the clip file itself, jsonl: results in order with the right categories, then the statistics",
        arguments: [VideoClipMaker.mp4, VideoClipMaker.webm])
    func clipFileJSONL(format: VideoClipMaker.Format) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(format, in: directory)

        let run = try await VisionTasksTool.run([
            "live", clip.path, "--model", Self.model, "--format", "jsonl", "--max-results", "3",
        ])
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
        let match = try #require(
            last.wholeMatch(of: /frames received (\d+), processed (\d+), dropped (\d+), last latency (\d+\.\d) ms/),
            "statistics line: \(last)")
        let (received, processed, dropped) = (Int(match.1) ?? -1, Int(match.2) ?? -1, Int(match.3) ?? -1)
        #expect(received == 40 && processed + dropped == received, "\(last)")
        let frames = lines.dropLast().compactMap(VideoOutput.tableFrame)
        #expect(frames.count == lines.count - 1, "every other line is a result line:\n\(run)")
        #expect(frames.count == processed, "\(run)")
        expectIncreasing(frames.map(\.timestampInMilliseconds))
        for frame in frames {
            let expected = VideoOutput.expectedTop(at: frame.timestampInMilliseconds, switchTime: 2000)
            #expect(frame.topIndex == expected.index && frame.topName == expected.name && frame.categoryCount == 5, "\(frame)")
        }
    }

    /// How long the tool may take to stop after SIGINT: promptly (normally well under a second:
    /// the frame in flight finishes, then the statistics), with room for a loaded machine; an
    /// endless source would never end by itself, and a stalled read only at its `--timeout`.
    static let stopAfterInterrupt = 15.0

    @Test("Ctrl-C on an endless source: exit 0 within a few seconds, with the statistics", arguments: ["jsonl", "table"])
    func interrupt(format: String) async throws {
        let live = try StreamingToolRun([
            "live", "testsrc=size=320x240:rate=30", "--input-format", "lavfi", "--model", Self.model,
            "--format", format, "--max-results", "1",
        ])
        // Interrupt once results are flowing (the SIGINT handler is set up before the source
        // opens): at the third line.
        let interrupted = await live.interrupt(atLine: 3, safetyNet: 120)
        let outcome = try await live.finish(within: 120)
        let interruptedAt = try #require(interrupted, "fewer than 3 results within 120 s\n\(outcome)").sentAt
        #expect(outcome.reason == .exit && outcome.status == 0, "\(outcome)")
        #expect(
            outcome.duration - interruptedAt < Self.stopAfterInterrupt,
            "stopped \(outcome.duration - interruptedAt) s after SIGINT\n\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")

        let received: Int, processed: Int, dropped: Int, resultCount: Int
        if format == "jsonl" {
            let (results, statistics) = try VideoOutput.live(outcome.stdoutLines, context: "\(outcome)")
            expectIncreasing(results.map(\.timestampInMilliseconds))
            (received, processed, dropped, resultCount) = (
                statistics.framesReceived, statistics.framesProcessed,
                statistics.framesDropped, results.count
            )
        } else {
            let last = outcome.stdoutLines.last ?? ""
            let match = try #require(
                last.wholeMatch(of: /frames received (\d+), processed (\d+), dropped (\d+), last latency \d+\.\d ms/),
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
        // A read timeout far longer than the stop allowed (stopping at the timeout fails), and than
        // the fifth result can take on a machine loaded many times over (a minute was seen).
        let timeout = 900_000
        let live = try StreamingToolRun(
            ["live", "pipe:0", "--model", Self.model, "--format", "jsonl", "--timeout", String(timeout)]
                + Self.rawPipeOptions, standardInput: input)
        let writer = input.fileHandleForWriting
        defer { try? writer.close() }
        // Five frames, then nothing (the pipe stays open): the tool waits in its read.
        let written = DispatchSemaphore(value: 0)
        Thread {
            for _ in 0..<5 { try? writer.write(contentsOf: frame) }
            written.signal()
        }.start()
        #expect(await Waiting.wait(for: written, safetyNet: 120), "the tool read the five frames")
        // The newest frame is never dropped (only a newer one replaces a waiting frame), so the
        // fifth frame's result (400 ms at 10 fps) comes: the tool has read all five and waits.
        let interrupted = await live.interrupt(
            onceALine: { line in
                let object = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any]
                return object?["timestampInMilliseconds"] as? Int == 400
            }, safetyNet: 600)
        let outcome = try await live.finish(within: 600)
        let interruptedAt = try #require(interrupted, "no result for the fifth frame (400 ms) within 600 s\n\(outcome)").sentAt
        #expect(outcome.reason == .exit, "\(outcome)")
        let (results, statistics) = try VideoOutput.live(outcome.stdoutLines, context: "\(outcome)")
        #expect(statistics.framesReceived == 5, "\(statistics)")
        #expect(results.count == statistics.framesProcessed && statistics.framesProcessed + statistics.framesDropped == 5)
        VideoOutput.expectTopCategories(results, switchTime: .max)
        #expect(
            outcome.duration - interruptedAt < Self.stopAfterInterrupt,
            "stopped \(String(format: "%.1f", outcome.duration - interruptedAt)) s after SIGINT (sent \(String(format: "%.1f", interruptedAt)) s in; read timeout \(timeout) ms)"
        )
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.diagnostics.isEmpty, "\(outcome)")
    }

    @Test("a missing camera: exit 1, the message names it")
    func missingCamera() async throws {
        let camera = (0..<64).map { "/dev/video\($0)" }.first { !FileManager.default.fileExists(atPath: $0) } ?? "/dev/video-none"
        let run = try await VisionTasksTool.run(["live", camera, "--model", Self.model])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics == ["error: NOT_FOUND: \(camera): Video source not found (No such file or directory)."], "\(run)")
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
        #expect(
            run.diagnostics == [
                "error: --format must be table or jsonl, got 'json'", "Run `vision-tasks live --help` for usage.",
            ], "\(run)")
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
        "--format", "--input-format", "--video-size", "--pixel-format", "--framerate", "--timeout", "--decoder-threads",
        "--verbose", "-h", "--help",
    ]

    @Test("every option live --help lists is accepted", arguments: helpOptions.filter { $0.hasPrefix("--") && $0 != "--help" })
    func listedOptionIsAccepted(option: String) async throws {
        let run = try await VisionTasksTool.run(["live", "\(option)=1"])
        #expect(run.status == 2, "no source given: \(run)")
        #expect(!run.stderr.contains("unknown option"), "\(run)")
    }
}
