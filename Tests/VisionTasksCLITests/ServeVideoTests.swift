import Foundation
import TestSupport
import Testing

/// `POST /v1/models/NAME/classify-video` (the web app's video uploads) and the routes the web
/// app reads: a clip's frames every 200 ms in video mode with the spans of its top category, and
/// the videos FFmpeg refuses or finds too long (the other errors and limits are
/// `ModelServerTests.RequestHandlerTests`, in process).
@Suite(.enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct ServeVideoTests {
    private func server(_ extra: [String] = []) async throws -> ServerProcess {
        try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"] + extra)
    }

    /// 40 frames at 0...3900 ms, burger then sparrow: 20 classified (0, 200, ... 3800 ms), two spans.
    @Test func aClipGivesItsFramesAndSpans() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: folder)
        let server = try await server()
        let reply = try await server.request(
            "POST", "/v1/models/mobilenet/classify-video?job=clip-1&max_results=2", body: Data(contentsOf: clip),
            headers: ["Content-Type": "video/mp4"])
        try #require(reply.status == 200, "\(reply.text)")
        #expect(reply.header("Server-Timing")?.hasPrefix("inference;dur=") == true)
        let outcome = try #require(reply.json as? [String: Any])
        let frames = try #require(outcome["frames"] as? [[String: Any]])
        #expect(frames.compactMap { $0["timestampInMilliseconds"] as? Int } == Array(stride(from: 0, through: 3800, by: 200)))
        let heads = try #require(frames.first?["classifications"] as? [[String: Any]])
        #expect((heads.first?["categories"] as? [Any])?.count == 2)
        let spans = try #require(outcome["spans"] as? [[String: Any]])
        #expect(spans.map { $0["category"] as? String } == [VideoClipMaker.burgerName, VideoClipMaker.sparrowName])
        #expect(spans.map { $0["fromMilliseconds"] as? Int } == [0, 2000])
        #expect(spans.map { $0["toMilliseconds"] as? Int } == [1800, 3800])
        #expect(spans.map { $0["frames"] as? Int } == [10, 10])
        // The job's progress is only there while it runs.
        let progress = try await server.request("GET", "/v1/videos/clip-1")
        #expect(progress.status == 404 && progress.error == "No video named 'clip-1' is being classified.")
        #expect(await server.terminate() == 0)
    }

    @Test func badUploadsGetTheirReason() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = folder.appendingPathComponent("long.mp4")
        try await VideoClipMaker.ffmpeg(
            ["-f", "lavfi", "-i", "color=c=gray:s=64x64:r=1", "-t", "61"] + VideoClipMaker.mp4.codecArguments + [long.path])
        let server = try await server()
        let path = "/v1/models/mobilenet/classify-video"
        let tooLong = try await server.request("POST", path, body: Data(contentsOf: long))
        #expect(tooLong.status == 400)
        #expect(
            tooLong.error == "The video lasts at least 61.0 s; videos of at most 60 s are classified here.",
            "\(tooLong.text)")
        let notVideo = try await server.request("POST", path, body: Data("# not a video\n".utf8))
        #expect(notVideo.status == 400 && notVideo.error?.hasPrefix("Failed to open video source: ") == true, "\(notVideo.text)")
        #expect(notVideo.error?.contains("vision-tasks-upload") == false, "no temporary path: \(notVideo.text)")
        #expect(await server.terminate() == 0)
    }

}
