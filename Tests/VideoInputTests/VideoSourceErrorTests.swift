import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import VideoInput

/// Sources that are not videos, or not there: each a typed error naming the source.
@Suite("VideoSource errors")
struct VideoSourceErrorTests {
    /// An input made in a temporary directory, and the error opening it must give.
    struct OpenCase: Sendable, CustomTestStringConvertible {
        let id: String
        let expected: TasksErrorCode
        let fragment: String
        let needsFFmpeg: Bool
        let options: VideoSourceOptions
        /// Makes the input in the directory and returns its URL.
        let make: @Sendable (URL) throws -> String

        var testDescription: String { id }

        init(
            _ id: String, _ expected: TasksErrorCode, _ fragment: String, needsFFmpeg: Bool = false,
            options: VideoSourceOptions = VideoSourceOptions(), make: @escaping @Sendable (URL) throws -> String
        ) {
            self.id = id
            self.expected = expected
            self.fragment = fragment
            self.needsFFmpeg = needsFFmpeg
            self.options = options
            self.make = make
        }
    }

    static let openCases: [OpenCase] = [
        OpenCase("missing file", .notFoundError, "Video source not found (No such file or directory).") {
            $0.appendingPathComponent("missing.mp4").path
        },
        OpenCase("missing file: URL", .notFoundError, "Video source not found (No such file or directory).") {
            "file:" + $0.appendingPathComponent("missing.mkv").path
        },
        OpenCase("directory", .invalidArgumentError, "directory") { $0.path },
        OpenCase("empty file", .invalidArgumentError, "video source") { try write(Data(), "empty.mp4", in: $0) },
        OpenCase("text file", .invalidArgumentError, "video source") {
            try write(Data("This is not a video, only a line of text.\n".utf8), "notes.mp4", in: $0)
        },
        OpenCase("random bytes", .invalidArgumentError, "video source") {
            var generator = SplitMix64(seed: 7)
            return try write(Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }), "garbage.mkv", in: $0)
        },
        OpenCase("audio only: no video stream", .invalidArgumentError, "no video stream", needsFFmpeg: true) {
            let output = $0.appendingPathComponent("tone.wav")
            try FFmpegTool.run(["-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", output.path])
            return output.path
        },
        OpenCase("MP4 cut before its index (moov at the end)", .invalidArgumentError, "video source", needsFFmpeg: true) {
            let output = $0.appendingPathComponent("whole.mp4")
            try FFmpegTool.run([
                "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=2", "-c:v", "mpeg4", output.path,
            ])
            let bytes = try Data(contentsOf: output)
            return try write(bytes.prefix(bytes.count / 2), "cut.mp4", in: $0)
        },
        OpenCase("missing camera", .notFoundError, "/dev/video") { _ in
            (0..<64).map { "/dev/video\($0)" }.first { !FileManager.default.fileExists(atPath: $0) } ?? "/dev/video-none"
        },
        OpenCase(
            "unknown input format", .invalidArgumentError, "unknown input format 'no-such-format'",
            options: VideoSourceOptions(inputFormat: "no-such-format")
        ) { $0.path + "/x" },
        OpenCase(
            "unknown demuxer option", .invalidArgumentError, "'no_such_option'",
            options: VideoSourceOptions(inputFormat: "lavfi", demuxerOptions: ["no_such_option": "1"])
        ) { _ in "testsrc=duration=1" },
        OpenCase("unknown protocol", .invalidArgumentError, "protocol") { _ in "nosuchprotocol://example/video.mp4" },
        OpenCase(
            "timeout not positive", .invalidArgumentError, "timeoutInMilliseconds 0",
            options: VideoSourceOptions(timeoutInMilliseconds: 0)
        ) { _ in "testsrc" },
        OpenCase(
            "negative decoder thread count", .invalidArgumentError, "decoderThreadCount -1",
            options: VideoSourceOptions(decoderThreadCount: -1)
        ) { _ in "testsrc" },
        OpenCase(
            "decoder thread count over 64", .invalidArgumentError, "decoderThreadCount 65",
            options: VideoSourceOptions(decoderThreadCount: 65)
        ) { _ in "testsrc" },
        OpenCase("empty URL", .invalidArgumentError, "empty") { _ in "" },
        OpenCase(
            "bad raw video size", .invalidArgumentError, "video source",
            options: VideoSourceOptions(inputFormat: "rawvideo", demuxerOptions: ["video_size": "wide"])
        ) {
            try write(Data(count: 1024), "frames.rgb", in: $0)
        },
    ]

    @Test("opening fails with a typed error naming the source", arguments: openCases)
    func openFails(_ openCase: OpenCase) throws {
        try #require(!openCase.needsFFmpeg || FFmpegTool.isAvailable, "needs the ffmpeg command")
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let url = try openCase.make(directory)
        let error = expectTasksError(openCase.expected, containing: [openCase.fragment]) {
            () throws(TasksError) in try VideoSource(url: url, options: openCase.options)
        }
        guard let error else { return }
        if url.isEmpty {
            #expect(error.subject == nil, "no source to name: \(error)")
            #expect(error.message == "Invalid video source: the URL is empty.")
        } else {
            // The source is the subject, set where the error is raised; the message shows it
            // once, in front of a reason that does not repeat it.
            #expect(error.subject == .videoSource(url), "\(error)")
            #expect(error.message == "\(url): \(error.reason)")
            #expect(!error.reason.contains("'\(url)'"), "the reason repeats the source: \(error.reason)")
        }
    }

    @Test(
        "a file cut in the middle gives its frames up to the cut, then nil or a typed error",
        .enabled(if: FFmpegTool.isAvailable, FFmpegTool.missingReason), arguments: ClipFormat.all)
    func truncatedFile(format: ClipFormat) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let whole = try Clips.movingPattern(format, in: directory)
        let bytes = try Data(contentsOf: whole)
        let cut = try write(bytes.prefix(bytes.count / 2), "cut.\(format.fileExtension)", in: directory)

        let source = try VideoSource(url: cut, options: VideoSourceOptions())
        var timestamps: [Int] = []
        var ending: TasksError?
        do {
            while let frame = try source.nextFrame() {
                timestamps.append(frame.timestampInMilliseconds)
            }
        } catch {
            ending = error
        }
        #expect(timestamps.count > 5 && timestamps.count < 40, "\(timestamps.count) frames before the cut")
        #expect(timestamps.first == 0)
        expectIncreasing(timestamps)
        if let ending {
            #expect(ending.code == .dataLossError, "\(ending)")
            #expect(ending.subject == .videoSource(cut), "\(ending)")
            #expect(ending.message.hasPrefix("\(cut): "), "\(ending)")
            // A spent source repeats its error.
            let again = expectTasksError(ending.code) { () throws(TasksError) in try source.nextFrame() }
            #expect(again == ending)
        } else {
            #expect(try source.nextFrame() == nil)
        }
    }

    @Test(
        "damaged bytes in the middle: as many frames as FFmpeg's own player decodes, no error",
        .enabled(if: FFmpegTool.isAvailable, FFmpegTool.missingReason), arguments: ClipFormat.all)
    func damagedMiddle(format: ClipFormat) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let whole = try Clips.movingPattern(format, in: directory)
        var bytes = try Data(contentsOf: whole)
        var generator = SplitMix64(seed: 11)
        let start = bytes.count / 2
        for index in start..<start + 2_000 {
            bytes[index] = UInt8.random(in: 0...255, using: &generator)
        }
        let damaged = try write(bytes, "damaged.\(format.fileExtension)", in: directory)
        // The reference: the frames ffmpeg decodes from the same file, one framecrc line each.
        let reference = try FFmpegTool.run(["-i", damaged, "-fps_mode", "passthrough", "-f", "framecrc", "-"])
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.count

        let source = try VideoSource(url: damaged, options: VideoSourceOptions())
        var timestamps: [Int] = []
        do {
            while let frame = try source.nextFrame() {
                timestamps.append(frame.timestampInMilliseconds)
            }
        } catch {
            Issue.record(
                "damage in the middle should not end the stream with an error: \(error) after \(timestamps.count) frames")
        }
        #expect(timestamps.count == reference, "\(timestamps.count) frames, ffmpeg decodes \(reference)")
        #expect(timestamps.count >= 15, "\(timestamps.count) frames")
        #expect(timestamps.first == 0)
        expectIncreasing(timestamps)
    }

    @Test(
        "a stream whose packets all fail to decode ends with dataLoss, not nil",
        .enabled(if: FFmpegTool.isAvailable, FFmpegTool.missingReason))
    func nothingDecodes() throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        // A valid Matroska file whose 10 MJPEG frames are random bytes (the noise filter
        // replaces every byte of every packet).
        let clip = directory.appendingPathComponent("noise.mkv")
        try FFmpegTool.run([
            "-y", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-c:v", "mjpeg", "-bsf:v", "noise=amount=1",
            clip.path,
        ])
        let source = try VideoSource(url: clip.path, options: VideoSourceOptions())
        let error = expectTasksError(.dataLossError, containing: ["no frame could be decoded from 10 packets"]) {
            () throws(TasksError) in
            try source.nextFrame()
        }
        #expect(error?.subject == .videoSource(clip.path), "\(String(describing: error))")
        #expect(
            error?.message.hasPrefix("\(clip.path): Failed to decode video source: no frame could be decoded from 10 packets, ")
                == true,
            "\(String(describing: error))")
    }

    /// Writes `data` to `name` in `directory` and returns its path.
    static func write(_ data: Data, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    private func write(_ data: Data, _ name: String, in directory: URL) throws -> String {
        try Self.write(data, name, in: directory)
    }
}
