import Foundation
import TestSupport
import Testing

/// `vision-tasks classify-video`: clips made with ffmpeg at test time from burger.jpg and
/// sparrow.jpg, classified with the quantized MobileNet in video running mode.
@Suite("classify-video", .enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct VideoCommandTests {
    static let model = VideoClipMaker.model

    /// The summary of the 4 s burger-then-sparrow clip when every frame is classified.
    static let burgerThenSparrowSummary = [
        VideoOutput.Span(category: "cheeseburger", index: 934, fromMilliseconds: 0, toMilliseconds: 1900, frames: 20),
        VideoOutput.Span(category: "brambling", index: 11, fromMilliseconds: 2000, toMilliseconds: 3900, frames: 20),
    ]

    @Test(
        "jsonl: every frame at 0, 100, ..., 3900 ms; cheeseburger up to 1900 ms, brambling from 2000 ms; two summary spans",
        arguments: [VideoClipMaker.mp4, VideoClipMaker.webm])
    func burgerThenSparrowJSONL(format: VideoClipMaker.Format) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(format, in: directory)

        let run = try await VisionTasksTool.run(["classify-video", clip.path, "--model", Self.model, "--format", "jsonl"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "nothing on stderr, LiteRT's message included (no --verbose):\n\(run)")
        let (frames, summary) = try VideoOutput.classifyVideo(run.stdoutLines, context: "\(run)")
        #expect(frames.map(\.timestampInMilliseconds) == Array(stride(from: 0, through: 3900, by: 100)), "\(run)")
        VideoOutput.expectTopCategories(frames, switchTime: 2000)
        // The switch, exactly: the last burger frame is at 1900 ms, the first sparrow frame at 2000 ms.
        #expect(frames.last { $0.top?.index == VideoClipMaker.burgerIndex }?.timestampInMilliseconds == 1900)
        #expect(frames.first { $0.top?.index == VideoClipMaker.sparrowIndex }?.timestampInMilliseconds == 2000)
        for frame in frames {
            let categories = frame.classifications.first?.categories ?? []
            #expect(frame.classifications.count == 1 && frame.classifications[0].headIndex == 0)
            #expect(categories.count == 5, "default --max-results 5 at \(frame.timestampInMilliseconds) ms")
            #expect(
                categories.map(\.score) == categories.map(\.score).sorted(by: >),
                "best first at \(frame.timestampInMilliseconds) ms")
            // A clear winner, as on the photos themselves (MediaPipe: 0.93 and 0.79).
            #expect(
                (frame.top?.score ?? 0) > 0.6,
                "top score at \(frame.timestampInMilliseconds) ms: \(String(describing: frame.top))")
        }
        #expect(summary == Self.burgerThenSparrowSummary, "\(summary)")
    }

    @Test("--decoder-threads changes how the frames are decoded, not which: 1 and 4 print the same bytes")
    func decoderThreadsKeepTheOutput() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: directory)
        var outputs: [String] = []
        for threads in ["1", "4"] {
            let run = try await VisionTasksTool.run([
                "classify-video", clip.path, "--model", Self.model, "--format", "jsonl", "--max-results", "-1",
                "--decoder-threads", threads,
            ])
            #expect(run.status == 0, "\(run)")
            #expect(run.stdoutLines.count == 41, "40 frames and the summary: \(run)")
            outputs.append(run.stdout)
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test(
        "table: a line per frame with its top category, then the same summary",
        arguments: [VideoClipMaker.mp4, VideoClipMaker.webm])
    func burgerThenSparrowTable(format: VideoClipMaker.Format) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(format, in: directory)

        let run = try await VisionTasksTool.run(["classify-video", clip.path, "--model", Self.model, "--max-results", "2"])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let lines = run.stdoutLines
        try #require(lines.count == 43, "40 frames, the heading and two spans:\n\(run)")
        let frames = lines.prefix(40).compactMap(VideoOutput.tableFrame)
        #expect(frames.count == 40, "every frame line parses:\n\(run)")
        #expect(frames.map(\.timestampInMilliseconds) == Array(stride(from: 0, through: 3900, by: 100)))
        for frame in frames {
            let expected = VideoOutput.expectedTop(at: frame.timestampInMilliseconds, switchTime: 2000)
            #expect(frame.topIndex == expected.index && frame.topName == expected.name, "\(frame)")
            #expect(frame.categoryCount == 2, "--max-results 2: \(frame)")
        }
        #expect(
            Array(lines.suffix(3)) == [
                "Summary (top category over time):",
                "  0-1900 ms  cheeseburger  (20 frames)",
                "  2000-3900 ms  brambling  (20 frames)",
            ], "\(run)")
    }

    @Test(
        "a variable-frame-rate clip: the container's timestamps (100 ms gaps, then 250 ms gaps)",
        arguments: [VideoClipMaker.mp4, VideoClipMaker.webm, VideoClipMaker.mkv])
    func variableFrameRate(format: VideoClipMaker.Format) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.variableFrameRate(format, in: directory)
        // What ffmpeg itself decodes: the 18 frames as made (the MP4 muxer's edit list cuts the
        // last one, whose duration it does not know, so ffmpeg decodes 17 there).
        let reference = try await VideoClipMaker.decodedTimestamps(of: clip)
        #expect(
            reference.count >= 17 && Array(VideoClipMaker.variableFrameRateTimestamps.prefix(reference.count)) == reference,
            "ffmpeg decodes \(reference)")

        let run = try await VisionTasksTool.run([
            "classify-video", clip.path, "--model", Self.model, "--format", "jsonl",
            "--max-results", "1",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let (frames, summary) = try VideoOutput.classifyVideo(run.stdoutLines, context: "\(run)")
        let timestamps = frames.map(\.timestampInMilliseconds)
        #expect(timestamps == reference, "\(run)")
        #expect(timestamps.prefix(12) == [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1250])
        VideoOutput.expectTopCategories(frames, switchTime: 1000)
        #expect(
            summary == [
                VideoOutput.Span(category: "cheeseburger", index: 934, fromMilliseconds: 0, toMilliseconds: 900, frames: 10),
                VideoOutput.Span(
                    category: "brambling", index: 11, fromMilliseconds: 1000, toMilliseconds: reference.last ?? -1,
                    frames: reference.count - 10),
            ], "\(summary)")
    }

    /// A sampling option, the clip it runs on, and the frames it must classify.
    struct SamplingCase: Sendable, CustomTestStringConvertible {
        let options: [String]
        let variableRate: Bool
        let timestamps: [Int]
        let switchTime: Int
        var testDescription: String {
            "\(options.joined(separator: " ")) on the \(variableRate ? "variable-rate" : "10 fps") clip"
        }
    }

    static let samplingCases = [
        SamplingCase(
            options: ["--every", "5"], variableRate: false, timestamps: Array(stride(from: 0, through: 3500, by: 500)),
            switchTime: 2000),
        SamplingCase(
            options: ["--fps", "2"], variableRate: false, timestamps: Array(stride(from: 0, through: 3500, by: 500)),
            switchTime: 2000),
        SamplingCase(
            options: ["--every=1"], variableRate: false, timestamps: Array(stride(from: 0, through: 3900, by: 100)),
            switchTime: 2000),
        SamplingCase(
            options: ["--fps", "10"], variableRate: false, timestamps: Array(stride(from: 0, through: 3900, by: 100)),
            switchTime: 2000),
        SamplingCase(options: ["--every", "40"], variableRate: false, timestamps: [0], switchTime: 2000),
        // --every counts decoded frames, --fps goes by their timestamps.
        SamplingCase(
            options: ["--every", "3"], variableRate: true, timestamps: [0, 300, 600, 900, 1500, 2250], switchTime: 1000),
        SamplingCase(
            options: ["--fps", "2"], variableRate: true, timestamps: [0, 500, 1000, 1500, 2000, 2500], switchTime: 1000),
    ]

    @Test("--every N classifies every Nth frame, --fps F at most F frames per second of video time", arguments: samplingCases)
    func sampling(_ samplingCase: SamplingCase) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // MKV keeps all 18 frames of the variable-rate clip (see variableFrameRate).
        let clip =
            samplingCase.variableRate
            ? try await VideoClipMaker.variableFrameRate(VideoClipMaker.mkv, in: directory)
            : try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: directory)

        let run = try await VisionTasksTool.run(
            ["classify-video", clip.path, "--model", Self.model, "--format", "jsonl"]
                + samplingCase.options)
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let (frames, summary) = try VideoOutput.classifyVideo(run.stdoutLines, context: "\(run)")
        let timestamps = frames.map(\.timestampInMilliseconds)
        #expect(timestamps == samplingCase.timestamps, "\(run)")
        VideoOutput.expectTopCategories(frames, switchTime: samplingCase.switchTime)
        let before = timestamps.filter { $0 < samplingCase.switchTime },
            after = timestamps.filter { $0 >= samplingCase.switchTime }
        var expected: [VideoOutput.Span] = []
        if let first = before.first, let last = before.last {
            expected.append(
                VideoOutput.Span(
                    category: "cheeseburger", index: 934, fromMilliseconds: first, toMilliseconds: last, frames: before.count))
        }
        if let first = after.first, let last = after.last {
            expected.append(
                VideoOutput.Span(
                    category: "brambling", index: 11, fromMilliseconds: first, toMilliseconds: last, frames: after.count))
        }
        #expect(summary == expected, "\(summary)")
    }

    @Test("--every with --fps is a usage error (exit 2), before the model or video is read")
    func everyWithFps() async throws {
        let run = try await VisionTasksTool.run(
            VisionTasksTool.verbose([
                "classify-video", "/nonexistent/clip.mp4", "--model", Self.model,
                "--every", "5", "--fps", "2",
            ]))
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(
            run.diagnostics == ["error: give --every or --fps, not both", "Run `vision-tasks classify-video --help` for usage."],
            "\(run)")
        #expect(!run.compiledModel, "\(run)")
    }

    @Test(
        "malformed sampling and format values are usage errors (exit 2)",
        arguments: [
            (["--every", "0"], "--every must be at least 1, got 0"),
            (["--every", "-3"], "--every must be at least 1, got -3"),
            (["--every", "often"], "--every expects an integer, got 'often'"),
            (["--fps", "0"], "--fps must be positive, got 0.0"),
            (["--fps", "-2"], "--fps must be positive, got -2.0"),
            (["--fps", "fast"], "--fps expects a number, got 'fast'"),
            (["--format", "json"], "--format must be table or jsonl, got 'json'"),
            (["--format", "xml"], "--format must be table or jsonl, got 'xml'"),
            (["--timeout", "0"], "--timeout must be between 1 and 2147483647, got 0"),
            (["--decoder-threads", "0"], "--decoder-threads must be between 1 and 64, got 0"),
            (["--decoder-threads", "65"], "--decoder-threads must be between 1 and 64, got 65"),
        ])
    func usageErrors(options: [String], message: String) async throws {
        let run = try await VisionTasksTool.run(["classify-video", "/nonexistent/clip.mp4", "--model", Self.model] + options)
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics == ["error: \(message)", "Run `vision-tasks classify-video --help` for usage."], "\(run)")
    }

    /// An input that cannot be opened as a video, made in a temporary directory.
    struct BadInput: Sendable, CustomTestStringConvertible {
        let name: String
        let code: String
        let fragment: String
        let make: @Sendable (URL) throws -> String
        var testDescription: String { name }
    }

    static let badInputs = [
        BadInput(name: "missing file", code: "NOT_FOUND", fragment: "not found") {
            $0.appendingPathComponent("missing.mp4").path
        },
        BadInput(name: "garbage", code: "INVALID_ARGUMENT", fragment: "not a video format FFmpeg recognizes") {
            var generator = SplitMix64(seed: 5)
            let url = $0.appendingPathComponent("garbage.mp4")
            try Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
            return url.path
        },
        BadInput(name: "text file", code: "INVALID_ARGUMENT", fragment: "not a video format FFmpeg recognizes") {
            let url = $0.appendingPathComponent("notes.webm")
            try Data("not a video\n".utf8).write(to: url)
            return url.path
        },
        BadInput(name: "directory", code: "INVALID_ARGUMENT", fragment: "directory") { $0.path },
    ]

    @Test("an input that is not a video: exit 1, one error line naming it, nothing on stdout", arguments: badInputs)
    func badInput(_ input: BadInput) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try input.make(directory)
        for format in ["table", "jsonl"] {
            let run = try await VisionTasksTool.run(["classify-video", path, "--model", Self.model, "--format", format])
            #expect(run.status == 1, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(run.diagnostics.count == 1, "\(run)")
            let line = run.diagnostics.first ?? ""
            #expect(line.hasPrefix("error: \(input.code): \(path): "), "names the input once, before the reason: \(run)")
            #expect(!line.contains("'\(path)'"), "the reason does not repeat the input: \(run)")
            #expect(line.contains(input.fragment), "\(run)")
        }
    }

    @Test(
        "a file cut in the middle: the frames before the cut (as ffmpeg decodes them), valid JSON lines, exit 0",
        arguments: [VideoClipMaker.mp4, VideoClipMaker.webm, VideoClipMaker.mkv])
    func truncated(format: VideoClipMaker.Format) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try VideoClipMaker.truncated(try await VideoClipMaker.movingPattern(format, in: directory), keeping: 0.5)
        let reference = try await VideoClipMaker.decodedTimestamps(of: cut)  // ffmpeg, too, exits 0 on these cuts

        let run = try await VisionTasksTool.run(["classify-video", cut.path, "--model", Self.model, "--format", "jsonl"])
        // FFmpeg's demuxers report a cut between packets as the end of the file ("File ended
        // prematurely", "Packet corrupt" are only logged), so the tool, like ffmpeg, ends normally,
        // and says on stderr that the frames stop short of the container's duration.
        #expect(run.status == 0, "\(run)")
        #expect(
            run.diagnostics.count == 1 && run.diagnostics[0].hasPrefix("warning: \(cut.path): ")
                && run.diagnostics[0].contains("ms of a 4000 ms video (is the file cut?)"), "\(run)")
        let (frames, summary) = try VideoOutput.classifyVideo(run.stdoutLines, context: "\(run)")
        let timestamps = frames.map(\.timestampInMilliseconds)
        #expect(timestamps == reference, "\(run)")
        #expect(timestamps.count > 10 && timestamps.count < 40, "\(timestamps.count) frames before the cut")
        #expect(
            timestamps.first == 0 && timestamps.allSatisfy { $0 % 100 == 0 && $0 < 4000 },
            "frames of the 10 fps clip: \(timestamps)")
        expectIncreasing(timestamps)
        #expect(summary.map(\.frames).reduce(0, +) == frames.count, "\(summary)")
        #expect(summary.first?.fromMilliseconds == 0 && summary.last?.toMilliseconds == timestamps.last, "\(summary)")
        for (span, next) in zip(summary, summary.dropFirst()) {
            #expect(span.category != next.category, "adjacent spans differ: \(summary)")
        }
    }

    @Test(
        "a clip cut inside its first key frame decodes nothing: exit 1 naming it, an empty summary",
        arguments: [VideoClipMaker.mp4, VideoClipMaker.webm])
    func cutInsideFirstKeyFrame(format: VideoClipMaker.Format) async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The burger's key frame holds most of the still-photo clip's bytes.
        let cut = try VideoClipMaker.truncated(
            try await VideoClipMaker.burgerThenSparrow(format, in: directory), keeping: 1.0 / 3)
        await #expect(throws: VideoClipMaker.Failure.self, "ffmpeg itself fails on it") {
            try await VideoClipMaker.ffmpeg(["-i", cut.path, "-f", "null", "-"])
        }

        let run = try await VisionTasksTool.run(["classify-video", cut.path, "--model", Self.model, "--format", "jsonl"])
        let (frames, summary) = try VideoOutput.classifyVideo(run.stdoutLines, context: "\(run)")
        #expect(frames.isEmpty && summary.isEmpty, "\(run)")
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics.count == 1 && run.diagnostics.first?.hasPrefix("error: DATA_LOSS: \(cut.path): ") == true, "\(run)")
    }

    @Test(
        "--timeout 1000 with a source that never sends: exit 1 after about 1 s, naming the source",
        arguments: ["udp", "tcp"])
    func unreachableSource(kind: String) async throws {
        try await expectGivesUpOnSilentSource(command: "classify-video", kind: kind, model: Self.model)
    }
}

/// `classify-video --help`; needs neither ffmpeg nor the test data.
struct VideoCommandHelpTests {
    @Test(
        "classify-video --help lists every option, exit 0",
        arguments: [["--help"], ["-h"], ["clip.mp4", "--model", "m.tflite", "--help"]])
    func help(arguments: [String]) async throws {
        let run = try await VisionTasksTool.run(["classify-video"] + arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        #expect(run.stdoutLines.first == "USAGE: vision-tasks classify-video VIDEO --model MODEL [--every N | --fps F] [options]")
        #expect(Self.listedOptions(run.stdoutLines) == Self.helpOptions, "\(run)")
        #expect(run.stdout.contains("EXIT STATUS: 0 when the video was read to its end (damaged packets are skipped, and a file"))
        #expect(run.stdout.contains("2 for a usage error"))
    }

    /// The option names `classify-video --help` lists, in order.
    static let helpOptions = [
        "--model", "--max-results", "--score-threshold", "--allow", "--deny", "--locale", "--threads", "--roi", "--rotation",
        "--every", "--fps", "--format", "--report", "--input-format", "--video-size", "--pixel-format", "--framerate",
        "--timeout", "--decoder-threads", "--verbose", "--no-progress", "-h", "--help",
    ]

    @Test(
        "every option classify-video --help lists is accepted",
        arguments: helpOptions.filter { $0.hasPrefix("--") && $0 != "--help" })
    func listedOptionIsAccepted(option: String) async throws {
        let run = try await VisionTasksTool.run(["classify-video", "\(option)=1"])
        #expect(run.status == 2, "no video given: \(run)")
        #expect(!run.stderr.contains("unknown option"), "\(run)")
    }

    /// The option names in a help's OPTIONS section: each line's leading `-x`/`--name` tokens.
    static func listedOptions(_ help: [String]) -> [String] {
        guard let start = help.firstIndex(of: "OPTIONS:") else { return [] }
        return help[(start + 1)...].prefix { !$0.isEmpty }.flatMap { line -> [String] in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-") else { return [] }
            return trimmed.split(separator: " ").prefix { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
        }
    }
}
