import Foundation
import TestSupport
import Testing

/// A model whose output is +inf: every image (and frame) is an error naming the category and
/// the value, in every format, with exit status 1; never a blank line, `{}` or exit 0.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct NonFiniteScoreTests {
    /// mobilenet_v2_1.0_224_quant.tflite with its output's quantization scale set to the largest float.
    ///
    /// Why this really gives +inf: that model's output is logits, uint8 with scale 0.0989 and
    /// zero point 58, written by a RESHAPE, which copies the bytes and ignores quantization
    /// (unlike a quantized softmax, whose kernel insists on a scale of 1/256). So LiteRT runs
    /// the model as before, and the classifier dequantizes each score as scale · (q − 58): every
    /// category whose byte is at least 2 above the zero point (the likely ones, at least) overflows
    /// to +inf. (Those at the zero point give 0, those below a negative number or −inf, which
    /// the threshold 0 drops; a scale of +inf itself would make 0 · inf = NaN, a library error.)
    static func infiniteScoreModel(in folder: URL) throws -> String {
        var patcher = ModelPatcher(try TestData.bytes("models/mobilenet_v2_1.0_224_quant.tflite"))
        #expect(
            abs(patcher.scale(of: .output) - 0.0988925) < 1e-6,
            "the output scale the comment describes: \(patcher.scale(of: .output))")
        patcher.setScale(.greatestFiniteMagnitude, of: .output)
        let url = folder.appendingPathComponent("infinite_scores.tflite")
        try patcher.data.write(to: url)
        return url.path
    }

    /// Whether `message` is the error for an infinite score.
    static func isInfiniteScoreMessage(_ message: String) -> Bool {
        message.wholeMatch(of: /category \d+ has a non-finite score \(inf\); the model's output is not a probability\./) != nil
    }

    @Test(arguments: ["json", "jsonl"])
    func infiniteScoresAreAnErrorForEachImage(format: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.infiniteScoreModel(in: folder)
        let images = [Fixture.burger, Fixture.sparrowPNG]
        let run = try await VisionTasksTool.run(["classify", "--model", model, "--format", format] + images)
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics.isEmpty, "errors are in the JSON:\n\(run)")
        let outcomes = try format == "json" ? run.jsonOutcomes() : run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == images, "\(run)")
        for outcome in outcomes {
            #expect(outcome.classifications == nil, "\(outcome)")
            let error = try #require(outcome.error, "\(run)")
            #expect(error.code == "OUT_OF_RANGE", "\(error)")
            #expect(Self.isInfiniteScoreMessage(error.message), "\(error.message)")
        }
        let objects = run.jsonObjects(format: format)
        #expect(objects.count == images.count && objects.allSatisfy { Set($0.keys) == ["image", "error"] }, "\(run)")
    }

    @Test func infiniteScoresAreAnErrorInTheTable() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try Self.infiniteScoreModel(in: folder)
        let run = try await VisionTasksTool.run(["classify", "--model", model, Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        try #require(run.diagnostics.count == 1, "\(run)")
        let prefix = "\(Fixture.burger): error: OUT_OF_RANGE: "
        #expect(run.diagnostics[0].hasPrefix(prefix), "\(run)")
        #expect(Self.isInfiniteScoreMessage(String(run.diagnostics[0].dropFirst(prefix.count))), "\(run)")
    }
}

/// The same model in classify-video and live: an error line for each frame, exit status 1.
@Suite("non-finite scores in video frames", .enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
struct NonFiniteFrameScoreTests {
    @Test(arguments: ["classify-video", "live"])
    func infiniteScoresAreAnErrorForEachFrame(command: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try NonFiniteScoreTests.infiniteScoreModel(in: folder)
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mkv, in: folder)

        let run = try await VisionTasksTool.run([command, clip.path, "--model", model, "--format", "jsonl"])
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let lines = run.stdoutLines
        let frames = lines.dropLast().compactMap { try? JSONDecoder().decode(ErrorFrame.self, from: Data($0.utf8)) }
        #expect(!frames.isEmpty && frames.count == lines.count - 1, "every frame line is an error:\n\(run)")
        for frame in frames {
            #expect(
                frame.error.code == "OUT_OF_RANGE" && NonFiniteScoreTests.isInfiniteScoreMessage(frame.error.message),
                "\(frame)")
        }
        #expect(command == "live" || lines.last == #"{"summary":[]}"#, "no frame was classified: \(run)")

        let table = try await VisionTasksTool.run([command, clip.path, "--model", model])
        #expect(table.status == 1, "\(table)")
        #expect(
            !table.diagnostics.isEmpty && table.diagnostics.allSatisfy { $0.contains(" ms: error: OUT_OF_RANGE: category ") },
            "\(table)")
    }

    /// A frame's error line: `{"timestampInMilliseconds", "error": {"code", "message"}}`.
    struct ErrorFrame: Decodable {
        let timestampInMilliseconds: Int
        let error: ImageOutcome.Failure
    }
}

/// The same model served: the image's error is OUT_OF_RANGE with the command line's message,
/// answered 422 (not a 400 about JSON encoding, not an empty object).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct NonFiniteServedScoreTests {
    @Test(arguments: ["/v1/models/inf/classify", "/v2/models/inf/infer"])
    func servedInfiniteScoresAreOutOfRange(path: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try NonFiniteScoreTests.infiniteScoreModel(in: folder)
        let cli = try await VisionTasksTool.run(["classify", "--model", model, "--format", "json", Fixture.burger])
        let cliMessage = try #require(try cli.jsonOutcomes().first?.error?.message, "\(cli)")
        let server = try await ServerProcess(["--model", "inf=\(model)"])
        let image = try Data(contentsOf: URL(fileURLWithPath: Fixture.burger))
        let reply =
            path.hasPrefix("/v1")
            ? try await server.request("POST", path, body: image, headers: ["Content-Type": "image/jpeg"])
            : try await server.request(
                "POST", path,
                body: Data(
                    #"{"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"data":["\#(image.base64EncodedString())"]}]}"#
                        .utf8))
        #expect(reply.status == 422, "\(reply.text)")
        let place = path.hasPrefix("/v1") ? "Image 0" : "Input 'image', element 0"
        #expect(reply.error == "\(place): \(cliMessage)", "\(reply.text)")
        #expect(await server.terminate() == 0)
    }
}
