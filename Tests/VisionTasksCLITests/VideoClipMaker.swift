import Foundation
import TestSupport
import Testing

/// The `ffmpeg` command, and the clips the `classify-video` and `live` tests feed to
/// `vision-tasks`, made at test time in a temporary directory from the shared photos.
///
/// (The CLI test target cannot see `Tests/VideoInputTests/Support`; this is its own, smaller copy.)
enum VideoClipMaker {
    /// The path of `ffmpeg` found on `PATH`, or nil.
    static let ffmpegPath: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/ffmpeg" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether clips can be made: `ffmpeg` is installed and the shared photos and models are there.
    static var canMake: Bool { ffmpegPath != nil && TestData.isAvailable }

    /// Why tests that need clips are skipped.
    static var missingReason: Comment {
        ffmpegPath == nil
            ? "the ffmpeg command is not installed: run ./scripts/bootstrap (it installs Debian's ffmpeg)"
            : Comment(rawValue: TestData.missingReason)
    }

    /// The frame size of the clips, in pixels.
    static let width = 320
    static let height = 240
    /// The frame rate of the constant-rate clips.
    static let frameRate = 10

    /// The model every video test classifies with, and what it ranks first for the two photos
    /// (MediaPipe's answers for the photos themselves, `expected/mediapipe_image_mode.json`).
    static let model = Fixture.quantModel
    static let burgerIndex = 934
    static let burgerName = "cheeseburger"
    static let sparrowIndex = 11
    static let sparrowName = "brambling"

    /// A container and codec clips are made in.
    struct Format: Sendable, CustomTestStringConvertible {
        let name: String
        let fileExtension: String
        let codecArguments: [String]
        var testDescription: String { name }
    }

    /// MP4 with H.264 (libx264; MPEG-4 Part 2 when this ffmpeg lacks it), index at the front.
    static var mp4: Format {
        encoders.isEmpty || encoders.contains("libx264")
            ? Format(
                name: "MP4/H.264", fileExtension: "mp4",
                codecArguments: ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
            : Format(
                name: "MP4/MPEG-4", fileExtension: "mp4",
                codecArguments: ["-c:v", "mpeg4", "-q:v", "3", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
    }

    /// WebM with VP9 (libvpx-vp9, fast real-time settings).
    static let webm = Format(
        name: "WebM/VP9", fileExtension: "webm",
        codecArguments: [
            "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
            "-b:v", "0", "-crf", "30", "-pix_fmt", "yuv420p",
        ])

    /// Matroska with MPEG-4 Part 2 (FFmpeg's own encoder, in every build).
    static let mkv = Format(
        name: "MKV/MPEG-4", fileExtension: "mkv",
        codecArguments: ["-c:v", "mpeg4", "-q:v", "3", "-pix_fmt", "yuv420p"])

    /// The names of the encoders this `ffmpeg` has (empty when it is missing).
    static let encoders: Set<String> = {
        guard ffmpegPath != nil, let output = try? ffmpegBlocking(["-hide_banner", "-encoders"]) else { return [] }
        return Set(
            String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count >= 2, fields[0].count == 6, fields[0].first == "V" else { return nil }
                return String(fields[1])
            })
    }()

    /// The scaling every clip applies to a photo.
    private static var scale: String { "scale=\(width):\(height),setsar=1" }

    /// burger.jpg for 2 s, then sparrow.jpg for 2 s, at 10 fps: 40 frames at 0, 100, ..., 3900 ms.
    static func burgerThenSparrow(_ format: Format, in directory: URL) async throws -> URL {
        let output = directory.appendingPathComponent("burger-sparrow.\(format.fileExtension)")
        try await ffmpeg(
            stillInputs(burgerRate: 10, burgerSeconds: 2, sparrowRate: 10, sparrowSeconds: 2)
                + format.codecArguments + [output.path])
        return output
    }

    /// A variable-frame-rate clip: burger.jpg at 10 fps for 1 s (100 ms gaps), then sparrow.jpg
    /// at 4 fps for 2 s (250 ms gaps).
    static func variableFrameRate(_ format: Format, in directory: URL) async throws -> URL {
        let output = directory.appendingPathComponent("vfr.\(format.fileExtension)")
        // Milliseconds as the time base: the concatenation's own (microseconds) is more than
        // MPEG-4 Part 2 allows.
        try await ffmpeg(
            stillInputs(burgerRate: 10, burgerSeconds: 1, sparrowRate: 4, sparrowSeconds: 2, after: ",settb=1/1000")
                + ["-fps_mode", "vfr"] + format.codecArguments + [output.path])
        return output
    }

    /// The frame times `variableFrameRate` is made with: 0, 100, ..., 900, then 1000, 1250, ..., 2750.
    static let variableFrameRateTimestamps =
        Array(stride(from: 0, through: 900, by: 100)) + Array(stride(from: 1000, through: 2750, by: 250))

    /// FFmpeg's moving test pattern (`testsrc2`) for 4 s at 10 fps: 40 frames whose bytes are
    /// spread over the file (unlike still photos, whose first key frame holds nearly everything).
    static func movingPattern(_ format: Format, in directory: URL) async throws -> URL {
        let output = directory.appendingPathComponent("pattern.\(format.fileExtension)")
        try await ffmpeg(
            ["-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=\(frameRate):duration=4"]
                + format.codecArguments + [output.path])
        return output
    }

    /// The first `fraction` of a file's bytes, written next to it as `cut-<name>`.
    static func truncated(_ file: URL, keeping fraction: Double) throws -> URL {
        let bytes = try Data(contentsOf: file)
        let output = file.deletingLastPathComponent().appendingPathComponent("cut-\(file.lastPathComponent)")
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: output)
        return output
    }

    /// One frame of a shared photo, scaled as the clips are, as raw RGB24 bytes (width * height * 3).
    static func rawFrame(_ photo: String) async throws -> Data {
        try await ffmpeg([
            "-i", TestData.image(photo).path, "-vf", scale, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
    }

    /// The presentation timestamps, in milliseconds from the first, of the frames FFmpeg itself
    /// decodes from `file` (`ffmpeg -fps_mode passthrough -f framecrc`: one line per decoded
    /// frame, with its time base in the header): the reference the tool's timestamps must match.
    static func decodedTimestamps(of file: URL) async throws -> [Int] {
        let text = String(
            decoding: try await ffmpeg(["-i", file.path, "-map", "0:v", "-fps_mode", "passthrough", "-f", "framecrc", "-"]),
            as: UTF8.self)
        var timeBase: (Int, Int)?
        var presentation: [Int] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#tb 0: ") {
                let parts = line.dropFirst("#tb 0: ".count).split(separator: "/").compactMap { Int($0) }
                if parts.count == 2 { timeBase = (parts[0], parts[1]) }
            } else if !line.hasPrefix("#") {
                let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if fields.count > 2, let pts = Int(fields[2]) { presentation.append(pts) }
            }
        }
        guard let (numerator, denominator) = timeBase else { throw Failure(message: "no time base in framecrc output:\n\(text)") }
        let origin = presentation.first ?? 0
        return presentation.map { (($0 - origin) * 1000 * numerator + denominator / 2) / denominator }
    }

    /// The inputs and filter that make a clip of burger.jpg then sparrow.jpg, each at its own
    /// rate, with `filter` applied after the concatenation.
    private static func stillInputs(
        burgerRate: Int, burgerSeconds: Int, sparrowRate: Int, sparrowSeconds: Int,
        after filter: String = ""
    ) -> [String] {
        [
            "-y", "-loop", "1", "-framerate", String(burgerRate), "-t", String(burgerSeconds), "-i",
            TestData.image("burger.jpg").path,
            "-loop", "1", "-framerate", String(sparrowRate), "-t", String(sparrowSeconds), "-i",
            TestData.image("sparrow.jpg").path,
            "-filter_complex",
            "[0:v]\(scale),format=yuv420p[a];[1:v]\(scale),format=yuv420p[b];[a][b]concat=n=2:v=1:a=0\(filter)[v]",
            "-map", "[v]",
        ]
    }

    /// Runs `ffmpeg` with `arguments` (after `-nostdin -v error`) and returns its standard output.
    ///
    /// Waits on a thread of its own, so that an encode does not hold one of the few threads
    /// Swift concurrency runs the (parallel) tests on.
    /// - Throws: `Failure` with the exit status and standard error when it fails.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) async throws -> Data {
        let exited = DispatchSemaphore(value: 0)
        return try await runFFmpeg(arguments, terminationHandler: { exited.signal() }) { process in
            if await !Waiting.wait(for: exited, safetyNet: 300) {
                process.terminate()
                throw Failure(message: "ffmpeg \(arguments.joined(separator: " ")) did not finish within 300 s")
            }
        }
    }

    /// `ffmpeg`, blocking the calling thread: for `encoders`, evaluated when tests are listed.
    private static func ffmpegBlocking(_ arguments: [String]) throws -> Data {
        let exited = DispatchSemaphore(value: 0)
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, outputURL, errorURL) = try startFFmpeg(arguments, in: folder) { exited.signal() }
        exited.wait()
        return try result(of: process, arguments: arguments, outputURL: outputURL, errorURL: errorURL)
    }

    private static func runFFmpeg(
        _ arguments: [String], terminationHandler: @escaping @Sendable () -> Void,
        wait: (Process) async throws -> Void
    ) async throws -> Data {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (process, outputURL, errorURL) = try startFFmpeg(arguments, in: folder, terminationHandler: terminationHandler)
        try await wait(process)
        return try result(of: process, arguments: arguments, outputURL: outputURL, errorURL: errorURL)
    }

    /// Starts ffmpeg with its stdout and stderr going to files in `folder` (no pipe can fill up and stall it).
    private static func startFFmpeg(
        _ arguments: [String], in folder: URL,
        terminationHandler: @escaping @Sendable () -> Void
    ) throws -> (Process, URL, URL) {
        guard let ffmpegPath else { throw Failure(message: "ffmpeg not found") }
        let outputURL = folder.appendingPathComponent("stdout"), errorURL = folder.appendingPathComponent("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let output = try FileHandle(forWritingTo: outputURL), errors = try FileHandle(forWritingTo: errorURL)
        defer { try? output.close(); try? errors.close() }  // the child has its own copies
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpegPath)
        process.arguments = ["-nostdin", "-v", "error"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        process.terminationHandler = { _ in terminationHandler() }
        try process.run()
        return (process, outputURL, errorURL)
    }

    private static func result(of process: Process, arguments: [String], outputURL: URL, errorURL: URL) throws -> Data {
        guard process.terminationStatus == 0 else {
            throw Failure(
                message: "ffmpeg \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
                    + String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self))
        }
        return try Data(contentsOf: outputURL)
    }

    /// A failed `ffmpeg` run.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
