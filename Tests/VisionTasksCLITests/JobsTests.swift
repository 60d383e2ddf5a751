import Foundation
import TestSupport
import Testing

/// `--jobs N`: several workers, each with its own model, print exactly what one worker prints,
/// in input order, in every format; memory stays flat over many images; the progress line
/// appears on a terminal only.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct JobsTests {
    static let photos = TestData.image("burger.jpg").deletingLastPathComponent().path

    @Test("classify: --jobs 2 and 4 print byte for byte what --jobs 1 prints", arguments: ["table", "json", "jsonl"])
    func classifyIsByteIdentical(format: String) async throws {
        // Every shared photo (JPEG baseline and progressive, PNG RGB and RGBA, EXIF), twice, and a
        // missing file in the middle.
        let arguments = [
            "classify", "--model", Fixture.floatModel, "--format", format, "--max-results", "3",
            Self.photos, "/nonexistent/missing.jpg", Self.photos,
        ]
        let one = try await VisionTasksTool.run(arguments + ["--jobs", "1"])
        #expect(one.status == 1, "the missing file: \(one)")
        #expect(one.stdout.count > 1000, "\(one)")
        for jobs in ["2", "4"] {
            let several = try await VisionTasksTool.run(arguments + ["--jobs", jobs])
            #expect(several.status == one.status, "\(several)")
            #expect(several.stdout == one.stdout, "--jobs \(jobs) stdout differs from --jobs 1")
            #expect(several.diagnostics == one.diagnostics, "--jobs \(jobs) stderr differs from --jobs 1")
            #expect(several.batchSummaryCounts == one.batchSummaryCounts, "the summary's times may differ, not its counts")
        }
    }

    @Test("label: --jobs 3 prints what --jobs 1 prints")
    func labelIsByteIdentical() async throws {
        let export = try AutoMLExportFolder()
        let arguments = ["label", "--manifest", export.manifestPath, "--confidence", "0", "--format", "jsonl", Self.photos]
        let one = try await VisionTasksTool.run(arguments + ["--jobs", "1"])
        let three = try await VisionTasksTool.run(arguments + ["--jobs", "3"])
        #expect(one.status == 0 && one.stdoutLines.count >= 10, "\(one)")
        #expect(three.stdout == one.stdout && three.status == one.status, "\(three)")
    }

    /// The resident memory of a running process, from /proc/PID/status (VmRSS, in kB).
    static func residentKilobytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    @Test("resident memory stays flat while a worker with --jobs 2 goes through many images")
    func memoryStaysFlat() async throws {
        let input = Pipe()
        let worker = try StreamingToolRun(
            [
                "classify", "--model", Fixture.quantModel, "--max-results", "1", "--jobs", "2",
                "--files-from", "-",
            ], standardInput: input)
        let photos = [Fixture.burgerPNG, Fixture.sparrowPNG, Fixture.burger]
        func feed(_ count: Int) throws {
            let lines = (0..<count).map { photos[$0 % photos.count] }.joined(separator: "\n") + "\n"
            try input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
        }
        try feed(150)
        #expect(await worker.waitForLines(150, safetyNet: 300), "\(worker.linesSoFar.count) lines")
        let before = try #require(Self.residentKilobytes(worker.processIdentifier))
        try feed(900)
        #expect(await worker.waitForLines(1050, safetyNet: 600), "\(worker.linesSoFar.count) lines")
        let after = try #require(Self.residentKilobytes(worker.processIdentifier))
        try input.fileHandleForWriting.close()
        let run = try await worker.finish(within: 120)
        #expect(run.status == 0 && run.stdoutLines.count == 1050, "\(run.status), \(run.stdoutLines.count) lines")
        // Six times the images: a leak of a result or an image per image would show in megabytes.
        #expect(after - before < 16_384, "resident memory grew from \(before) kB to \(after) kB over 900 images")
    }

    @Test("the progress line is drawn on a terminal, never into a file, and not with --no-progress")
    func progressOnTerminalOnly() async throws {
        let arguments = ["classify", "--model", Fixture.quantModel, "--format", "jsonl", "--jobs", "2", Self.photos]
        let file = try await VisionTasksTool.run(arguments)
        #expect(file.diagnostics.isEmpty, "nothing but the summary line: \(file)")
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "util-linux `script` gives the tool a terminal")
        let executable = try #require(VisionTasksTool.executable)
        // stdout to /dev/null, stderr on script's terminal, which script copies to its stdout.
        let command = ([executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ") + " >/dev/null"
        for (extra, shown) in [("", true), (" --no-progress", false)] {
            let (status, output) = try await Self.run(script, ["-qec", command + extra, "/dev/null"])
            #expect(status == 0, "\(output)")
            let total = try FileManager.default.contentsOfDirectory(atPath: Self.photos)
                .filter { ["jpg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }.count
            #expect(output.contains("\(total)/\(total) images") == shown, "\(output)")
        }
    }

    /// Runs a program with stdout to a file, waiting for its exit (with a safety net against a hang).
    static func run(_ program: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String) {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout")
        try Data().write(to: output)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let finished = await Waiting.wait(for: exited, safetyNet: 300)
        if !finished { process.terminate() }
        try #require(finished, "\(program) \(arguments) did not finish within 300 s")
        return (process.terminationStatus, String(decoding: try Data(contentsOf: output), as: UTF8.self))
    }
}

/// classify-video's progress line: on a terminal only, never with --no-progress.
@Suite(.enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct VideoProgressTests {
    @Test func progressOnTerminalOnly() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: folder)
        let arguments = ["classify-video", clip.path, "--model", VideoClipMaker.model, "--format", "jsonl"]
        let file = try await VisionTasksTool.run(arguments)
        #expect(file.status == 0 && !file.stderr.contains("of video"), "\(file)")
        let executable = try #require(VisionTasksTool.executable)
        let command = ([executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ") + " >/dev/null"
        for (extra, shown) in [("", true), (" --no-progress", false)] {
            let (status, output) = try await JobsTests.run("/usr/bin/script", ["-qec", command + extra, "/dev/null"])
            #expect(status == 0, "\(output)")
            #expect(output.contains(" s of video, ") == shown, "\(output)")
        }
    }
}
