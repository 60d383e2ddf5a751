import Foundation
import TestSupport
import Testing

/// `POST /v1/models/NAME/classify-video` (the web app's video uploads) and the routes the web
/// app reads: a clip's frames every 200 ms in video mode with the spans of its top category,
/// the limits the server enforces, the errors, and the inference time in `Server-Timing`.
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
        let empty = try await server.request("POST", path, body: Data())
        #expect(empty.error == "The request has no video: its body is empty.", "\(empty.text)")
        let badJob = try await server.request("POST", path + "?job=a%20b", body: Data("x".utf8))
        #expect(badJob.error == "Parameter 'job' must be 1 to 64 letters, digits, '-' or '_', got 'a b'.", "\(badJob.text)")
        let models = try #require(try await server.request("GET", "/v1/models").json as? [String: Any])
        #expect(models["videoLimits"] as? [String: Int] == ["maxBytes": 16 * 1024 * 1024, "maxSeconds": 60])
        #expect(await server.terminate() == 0)
    }

    @Test func aVideoOverTheSizeLimitGets413BeforeItIsRead() async throws {
        let server = try await server()
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /v1/models/mobilenet/classify-video HTTP/1.1\r\nHost: localhost\r\nContent-Type: video/mp4\r\n"
                + "Content-Length: \(16 * 1024 * 1024 + 1)\r\nConnection: close\r\n\r\n")
        #expect(await connection.responseStatus() == 413)
        #expect(await server.terminate() == 0)
    }

    @Test func anEmbedderClassifiesNoVideo() async throws {
        let server = try await ServerProcess(["--model", "extractor=\(EmbedCommandTests.extractor)", "--task", "embed"])
        let reply = try await server.request("POST", "/v1/models/extractor/classify-video", body: Data("x".utf8))
        #expect(reply.status == 400)
        #expect(reply.error == "Model 'extractor' is an embedder; only classifiers classify videos.", "\(reply.text)")
        #expect(await server.terminate() == 0)
    }

    /// `GET /v1/models/NAME`: what `inspect` shows first, for the page's model details.
    @Test func modelDetailsSummarizeTheModel() async throws {
        let server = try await server()
        let details = try #require(try await server.request("GET", "/v1/models/mobilenet").json as? [String: Any])
        #expect(details["kind"] as? String == "classifier" && details["task"] as? String == "classify")
        let summary = try #require(details["summary"] as? [String: Any])
        #expect(summary["name"] as? String == "MobileNetV1 image classifier (quantized)")
        #expect(summary["servedLocale"] as? String == "en")
        let input = try #require((summary["inputs"] as? [[String: Any]])?.first)
        #expect(input["type"] as? String == "UINT8" && input["shape"] as? [Int] == [1, 224, 224, 3])
        let head = try #require((summary["heads"] as? [[String: Any]])?.first)
        #expect(head["name"] as? String == "probability" && head["categories"] as? Int == 1001 && head["labels"] as? Int == 1001)
        let unknown = try await server.request("GET", "/v1/models/nothing")
        #expect(unknown.status == 404)
        #expect(await server.terminate() == 0)
    }

    /// The page shows the model's own time: `Server-Timing: inference;dur=MS` on the v1 and OIP routes.
    @Test func answersCarryTheInferenceTime() async throws {
        let server = try await server()
        let photo = try Data(contentsOf: ServeTests.burger)
        let v1 = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: photo, headers: ["Content-Type": "image/jpeg"])
        let oip = try await server.request(
            "POST", "/v2/models/mobilenet/infer",
            body: Data(
                #"{"inputs":[{"name":"image","shape":[1],"datatype":"BYTES","data":["\#(photo.base64EncodedString())"]}]}"#.utf8),
            headers: ["Content-Type": "application/json"])
        for reply in [v1, oip] {
            #expect(reply.status == 200, "\(reply.text)")
            let timing = try #require(reply.header("Server-Timing"))
            let milliseconds = try #require(Double(timing.replacingOccurrences(of: "inference;dur=", with: "")), "\(timing)")
            #expect(milliseconds > 0 && milliseconds < 600_000, "\(timing)")
        }
        #expect(await server.terminate() == 0)
    }
}
