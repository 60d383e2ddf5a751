import Foundation
import ImageTasks
import ServedModels
import TasksCommon
import TestSupport
import Testing
import VideoTasks
import VisionTasks

/// The server's video classification (`VideoClassification`) on a clip ffmpeg makes of the
/// shared photos: burger.jpg for 2 s then sparrow.jpg for 2 s, 10 fps (frames at 0 ... 3900 ms).
@Suite(
    .enabled(
        if: ExternalProgram.find(["ffmpeg"]) != nil && TestData.isAvailable,
        "ffmpeg or the shared test data is missing: run ./scripts/bootstrap --tests"))
struct VideoClassificationTests {
    static let model = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path

    /// The clip in MPEG-4 Part 2 (any ffmpeg has it), or H.264 (`codec: "libx264"`, Debian's has it).
    private func clip(in folder: URL, codec: String = "mpeg4") async throws -> String {
        let output = folder.appendingPathComponent("clip.mp4").path
        let scale = "scale=320:240,setsar=1,fps=10"
        let run = try await ExternalProgram.run(
            try #require(ExternalProgram.find(["ffmpeg"])),
            [
                "-v", "error", "-y", "-loop", "1", "-t", "2", "-i", TestData.image("burger.jpg").path, "-loop", "1", "-t", "2",
                "-i", TestData.image("sparrow.jpg").path, "-filter_complex",
                "[0:v]\(scale)[a];[1:v]\(scale)[b];[a][b]concat=n=2:v=1[v]", "-map", "[v]", "-c:v", codec, "-pix_fmt", "yuv420p",
                output,
            ])
        try #require(run.status == 0, "\(run)")
        return output
    }

    private func classifier() throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = Self.model
        options.runningMode = .video
        return try ImageClassifier(options: options)
    }

    @Test func framesEveryIntervalWithProgressAndSpans() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try await clip(in: folder)
        var limits = VideoClassification.Limits()
        limits.frameIntervalMilliseconds = 500
        var parameters = RequestParameters()
        parameters.maxResults = 1
        var fractions: [Double] = []
        let outcome = try VideoClassification.run(
            videoAt: video, classifier: try classifier(), parameters: parameters, limits: limits
        ) { fractions.append($0) }
        #expect(outcome.frames.map(\.timestampInMilliseconds) == [0, 500, 1000, 1500, 2000, 2500, 3000, 3500])
        #expect(outcome.frames.allSatisfy { $0.classifications.first?.categories.count == 1 })
        #expect(outcome.spans.map(\.category) == ["cheeseburger", "brambling"])
        #expect(outcome.spans.map(\.fromMilliseconds) == [0, 2000])
        #expect(outcome.spans.map(\.toMilliseconds) == [1500, 3500])
        let duration = try #require(outcome.durationInMilliseconds)
        #expect(fractions == outcome.frames.map { Double($0.timestampInMilliseconds) / Double(duration) })
    }

    @Test func aVideoOverTheDurationLimitIsRefusedByName() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try await clip(in: folder)
        var limits = VideoClassification.Limits()
        limits.maxDurationMilliseconds = 1000
        #expect {
            try VideoClassification.run(
                videoAt: video, classifier: try classifier(), parameters: RequestParameters(), limits: limits
            ) { _ in }
        } throws: { error in
            (error as? TasksError)?.reason == "The video lasts at least 4.0 s; videos of at most 1 s are classified here."
        }
    }

    /// An HLS playlist naming a video on the server's disk is not followed: only containers open.
    /// (FFmpeg follows it otherwise: H.264 in MP4 is a segment its HLS demuxer reads.)
    @Test func aPlaylistIsNotFollowed() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try await clip(in: folder, codec: "libx264")
        let playlist = folder.appendingPathComponent("upload")
        try Data("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:4.0,\n\(video)\n#EXT-X-ENDLIST\n".utf8).write(to: playlist)
        #expect {
            try VideoClassification.run(
                videoAt: playlist.path, classifier: try classifier(), parameters: RequestParameters(),
                limits: VideoClassification.Limits()
            ) { _ in }
        } throws: { error in
            let error = error as? TasksError
            return error?.code == .invalidArgumentError && error?.reason.contains("Failed to open video source") == true
        }
    }

    @Test func spansFollowTheTopCategory() {
        var spans = CategorySpans()
        let burger = ResultCategory(index: 934, score: 0.9, categoryName: "cheeseburger", displayName: nil)
        spans.add(top: burger, at: 0)
        spans.add(top: burger, at: 100)
        spans.add(top: nil, at: 200)
        spans.add(top: ResultCategory(index: 7, score: 0.5, categoryName: nil, displayName: nil), at: 300)
        #expect(spans.spans.map(\.category) == ["cheeseburger", "", "7"])
        #expect(spans.spans.map(\.frames) == [2, 1, 1])
        #expect(spans.spans.map(\.toMilliseconds) == [100, 200, 300])
    }
}
