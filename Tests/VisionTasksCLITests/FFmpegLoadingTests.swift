import Foundation
import TestSupport
import Testing

/// The tool loads FFmpeg when a video source opens, not at start: its libraries bring about 230
/// others, whose loading took about 60 ms of every run. glibc's loader lists each library it
/// loads under `LD_DEBUG=libs` (on stderr), with a `calling init: PATH` line for each.
struct FFmpegLoadingTests {
    static let libraryTrace = ["LD_DEBUG": "libs"]

    /// Whether the loader's trace on `stderr` shows libavformat being initialized.
    static func loadedFFmpeg(_ run: VisionTasksTool.Run) -> Bool {
        run.stderr.split(separator: "\n").contains { $0.contains("calling init: ") && $0.contains("/libavformat.so.") }
    }

    @Test("classifying a photo does not load FFmpeg")
    func photosDoNotLoadFFmpeg() async throws {
        let run = try await VisionTasksTool.run(
            ["classify", "--model", Fixture.quantModel, Fixture.burger], environment: Self.libraryTrace)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("cheeseburger"), "\(run)")
        #expect(!Self.loadedFFmpeg(run), "\(run)")
    }

    @Test("opening a video source loads FFmpeg, then fails on the missing file as before")
    func videoLoadsFFmpeg() async throws {
        let run = try await VisionTasksTool.run(
            ["classify-video", "/nonexistent/clip.mp4", "--model", Fixture.quantModel], environment: Self.libraryTrace)
        #expect(run.status == 1, "\(run)")
        #expect(Self.loadedFFmpeg(run), "\(run)")
        #expect(
            run.stderr.contains(
                "error: NOT_FOUND: /nonexistent/clip.mp4: Video source not found (No such file or directory)."),
            "\(run)")
    }

    @Test("an FFmpeg library that cannot be loaded is an UNAVAILABLE error naming it, not a crash")
    func unloadableFFmpegIsATypedError() async throws {
        // The loader finds libavutil first on LD_LIBRARY_PATH: a file that is no library, under
        // every plausible soname (libavutil.so.50 to .70).
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for major in 50...70 {
            try Data("not a library".utf8).write(to: directory.appendingPathComponent("libavutil.so.\(major)"))
        }
        let run = try await VisionTasksTool.run(
            ["classify-video", "/nonexistent/clip.mp4", "--model", Fixture.quantModel],
            environment: ["LD_LIBRARY_PATH": directory.path])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        let prefix = "error: UNAVAILABLE: /nonexistent/clip.mp4: FFmpeg could not be loaded (\(directory.path)/libavutil.so."
        #expect(run.diagnostics.count == 1, "\(run)")
        #expect(run.diagnostics.first?.hasPrefix(prefix) == true, "\(run)")
        #expect(run.diagnostics.first?.hasSuffix("(scripts/bootstrap installs them).") == true, "\(run)")
    }
}
