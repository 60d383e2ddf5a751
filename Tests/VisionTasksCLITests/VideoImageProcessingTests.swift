import Foundation
import TestSupport
import Testing

/// `--roi` and `--rotation` in classify-video and live, as in classify: clips of one photo
/// (5 frames at 5 fps, MPEG-4 in MKV, which every ffmpeg can write), classified in video and
/// live-stream mode with the region and orientation override.
@Suite("classify-video and live: --roi and --rotation", .enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct VideoImageProcessingTests {
    /// A clip of `photo` at its own size (rounded down to even sides, which yuv420p needs).
    static func stillClip(_ photo: String, in folder: URL) async throws -> URL {
        let output = folder.appendingPathComponent("\(photo).mkv")
        try await VideoClipMaker.ffmpeg(
            [
                "-y", "-loop", "1", "-framerate", "5", "-t", "1", "-i", TestData.image(photo).path,
                "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2,setsar=1,format=yuv420p",
            ]
                + VideoClipMaker.mkv.codecArguments + [output.path])
        return output
    }

    /// The first head's top category of every result line (`jsonl`; the last line is the
    /// summary or statistics).
    static func topCategories(_ run: VisionTasksTool.Run, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String?] {
        try run.stdoutLines.dropLast().map { line in
            let frame = try #require(
                try? JSONDecoder().decode(VideoOutput.Frame.self, from: Data(line.utf8)),
                "not a frame result: \(line)\n\(run)", sourceLocation: sourceLocation)
            return frame.top?.categoryName
        }
    }

    /// burger_rotation180.jpg is the burger upside down (MediaPipe sees a hot pot); turned by
    /// `--rotation 180`, every frame is a cheeseburger again.
    @Test(arguments: ["classify-video", "live"])
    func rotationTurnsTheBurgerUpright(command: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.stillClip("burger_rotation180.jpg", in: folder)
        let arguments = [command, clip.path, "--model", Fixture.quantModel, "--format", "jsonl", "--max-results", "1"]

        let stored = try await VisionTasksTool.run(arguments)
        #expect(stored.status == 0, "\(stored)")
        let storedTops = try Self.topCategories(stored)
        #expect(!storedTops.isEmpty && !storedTops.contains("cheeseburger"), "upside down: \(storedTops)")

        let rotated = try await VisionTasksTool.run(arguments + ["--rotation", "180"])
        #expect(rotated.status == 0, "\(rotated)")
        #expect(rotated.diagnostics.isEmpty, "\(rotated)")
        let rotatedTops = try Self.topCategories(rotated)
        #expect(!rotatedTops.isEmpty && rotatedTops.allSatisfy { $0 == "cheeseburger" }, "\(rotated)")
    }

    /// The region around the soccer ball of multi_objects.jpg (classify's test, from
    /// expected/mediapipe_roi_rotation.json): every frame is a soccer ball; the whole frame is not.
    @Test(arguments: ["classify-video", "live"])
    func regionOfInterestFindsTheSoccerBall(command: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.stillClip("multi_objects.jpg", in: folder)
        let arguments = [command, clip.path, "--model", Fixture.floatModel, "--format", "jsonl", "--max-results", "1"]

        let whole = try await VisionTasksTool.run(arguments)
        #expect(whole.status == 0, "\(whole)")
        let wholeTops = try Self.topCategories(whole)
        #expect(!wholeTops.isEmpty && !wholeTops.contains("soccer ball"), "\(wholeTops)")

        let region = try await VisionTasksTool.run(arguments + ["--roi", "0.45,0.3075,0.164,0.427"])
        #expect(region.status == 0, "\(region)")
        #expect(region.diagnostics.isEmpty, "\(region)")
        let regionTops = try Self.topCategories(region)
        #expect(!regionTops.isEmpty && regionTops.allSatisfy { $0 == "soccer ball" }, "\(region)")
    }
}

/// `--roi` and `--rotation` values MediaPipe would refuse are usage errors (exit 2) in
/// classify-video and live, found before the model or source is opened. Needs no ffmpeg.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct VideoImageProcessingUsageTests {
    @Test(
        arguments: ["classify-video", "live"],
        [
            (
                ["--roi", "0.5,0.5,0.6,0.6"],
                "error: --roi must lie inside the image (X, Y, W, H normalized to [0, 1]): "
                    + "Expected RectF values to be in [0,1]. Got left 0.5, top 0.5, right 1.1, bottom 1.1. Given '0.5,0.5,0.6,0.6'."
            ),
            (
                ["--roi", "-0.1,0,0.5,0.5"],
                "error: --roi must lie inside the image (X, Y, W, H normalized to [0, 1]): "
                    + "Expected RectF values to be in [0,1]. Got left -0.1, top 0.0, right 0.4, bottom 0.5. Given '-0.1,0,0.5,0.5'."
            ),
            (["--roi", "0.1,0.2,0.3"], "error: --roi expects four numbers X,Y,W,H, got '0.1,0.2,0.3'"),
            (["--rotation", "45"], "error: --rotation: Expected rotation to be a multiple of 90°, got 45."),
        ])
    func badRegionOrRotationIsAUsageError(command: String, usage: (options: [String], message: String)) async throws {
        let (options, message) = usage
        let run = try await VisionTasksTool.run([command, "/nonexistent/clip.mp4", "--model", Fixture.quantModel] + options)
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics == [message, "Run `vision-tasks \(command) --help` for usage."], "\(run)")
    }
}
