import Foundation
import TestSupport
import Testing

/// `vision-tasks serve` with an embedder: the OIP v2 output `embedding` ([B, D], FP32 or INT8)
/// and `/v1/models/NAME/embed`, against `vision-tasks embed`'s own answers.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServeEmbedTests {
    /// `embed --format json ARGUMENTS` for burger.jpg and sparrow.jpg: each record's first head.
    static func cliEmbeddings(_ options: [String] = []) async throws -> [[String: Any]] {
        let run = try await VisionTasksTool.run(
            ["embed", "--model", EmbedCommandTests.embedder, "--format", "json"] + options
                + [ServeTests.burger.path, ServeTests.sparrow.path])
        try #require(run.status == 0, "\(run)")
        return try run.jsonObjects(format: "json").map { try #require(($0["embeddings"] as? [[String: Any]])?.first) }
    }

    /// The tiny embedder's metadata is named "ImageEmbedder": served without --task, it embeds.
    @Test func theMetadataSaysItEmbedsAndInferGivesFP32() async throws {
        let server = try await ServerProcess(["--model", "tiny=\(EmbedCommandTests.embedder)"])
        let expected = try await Self.cliEmbeddings().map { try #require($0["floatEmbedding"] as? [NSNumber]).map(\.floatValue) }
        let metadata = try #require(try await server.request("GET", "/v2/models/tiny").json as? [String: Any])
        #expect(metadata["task"] as? String == "embed")
        let outputs = try #require(metadata["outputs"] as? [[String: Any]])
        #expect(outputs.first?["name"] as? String == "embedding" && outputs.first?["datatype"] as? String == "FP32")
        #expect(outputs.first?["shape"] as? [Int] == [-1, 1280])

        let reply = try await server.request("POST", "/v2/models/tiny/infer", body: try ServeTests.jsonInferRequest())
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        let output = try #require(((reply.json as? [String: Any])?["outputs"] as? [[String: Any]])?.first)
        #expect(output["name"] as? String == "embedding" && output["datatype"] as? String == "FP32")
        #expect(output["shape"] as? [Int] == [2, 1280])
        let data = try #require(output["data"] as? [NSNumber]).map(\.floatValue)
        #expect(data == expected.flatMap { $0 }, "the rows are embed's floats, in request order")
        #expect(await server.terminate() == 0)
    }

    @Test func binaryOutputIsLittleEndianFloats() async throws {
        let server = try await ServerProcess(["--model", "tiny=\(EmbedCommandTests.embedder)"])
        let expected = try await Self.cliEmbeddings().map { try #require($0["floatEmbedding"] as? [NSNumber]).map(\.floatValue) }
        let header = try JSONSerialization.data(withJSONObject: [
            "inputs": [
                [
                    "name": "image", "datatype": "BYTES", "shape": [2],
                    "data": try [ServeTests.burger, ServeTests.sparrow].map {
                        try Data(contentsOf: $0).base64EncodedString()
                    },
                ]
            ],
            "outputs": [["name": "embedding", "parameters": ["binary_data": true]]],
        ])
        let reply = try await server.request("POST", "/v2/models/tiny/infer", body: header)
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        let length = try #require(reply.header("Inference-Header-Content-Length").flatMap { Int($0) })
        let binary = reply.body.dropFirst(length)
        #expect(binary.count == 2 * 1280 * 4)
        #expect(NumPyArray.littleEndianFloats(Data(binary)) == expected.flatMap { $0 })
        #expect(await server.terminate() == 0)
    }

    @Test func quantizedServingGivesINT8() async throws {
        let server = try await ServerProcess([
            "--model", "tiny=\(EmbedCommandTests.embedder)", "--task", "embed", "--l2-normalize", "--quantize",
        ])
        let expected = try await Self.cliEmbeddings(["--l2-normalize", "--quantize"]).map {
            try #require($0["quantizedEmbedding"] as? [Int])
        }
        let reply = try await server.request("POST", "/v2/models/tiny/infer", body: try ServeTests.jsonInferRequest())
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        let output = try #require(((reply.json as? [String: Any])?["outputs"] as? [[String: Any]])?.first)
        #expect(output["datatype"] as? String == "INT8" && output["shape"] as? [Int] == [2, 1280])
        #expect(output["data"] as? [Int] == expected.flatMap { $0 })
        #expect(await server.terminate() == 0)
    }

    @Test func v1EmbedGivesTheCLIRecords() async throws {
        let server = try await ServerProcess(["--model", "tiny=\(EmbedCommandTests.embedder)"])
        let expected = try await Self.cliEmbeddings()
        let (body, boundary) = ServeTests.multipart([("burger.jpg", ServeTests.burger), ("sparrow.jpg", ServeTests.sparrow)])
        let reply = try await server.request(
            "POST", "/v1/models/tiny/embed", body: body, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        let records = try ServeTests.records(reply)
        #expect(records.map { $0["image"] as? String } == ["burger.jpg", "sparrow.jpg"])
        for (record, embedding) in zip(records, expected) {
            let served = (record["embeddings"] as? [[String: Any]])?.first
            #expect(served.map { NSDictionary(dictionary: $0).isEqual(to: embedding) } == true)
        }
        let classify = try await server.request(
            "POST", "/v1/models/tiny/classify", body: try Data(contentsOf: ServeTests.burger),
            headers: ["Content-Type": "image/jpeg"])
        #expect(classify.status == 404, "an embedder is not classified: \(classify.text)")
        #expect(classify.error == "Model 'tiny' is an embedder: its route is /v1/models/tiny/embed, not /classify.")
        #expect(await server.terminate() == 0)
    }

    @Test func classificationParametersAreRefused() async throws {
        let server = try await ServerProcess(["--model", "tiny=\(EmbedCommandTests.embedder)"])
        let reply = try await server.request(
            "POST", "/v2/models/tiny/infer", body: try ServeTests.jsonInferRequest(parameters: ["max_results": 3]))
        #expect(reply.status == 400)
        #expect(
            reply.error
                == "An embedder takes no classification parameters (max_results, score_threshold, category lists, locale).",
            "\(reply.text)")
        #expect(await server.terminate() == 0)
    }

    /// The embedder options with no model served as an embedder are an error, not ignored.
    @Test func embedderOptionsNeedAnEmbedder() async throws {
        let run = try await VisionTasksTool.run([
            "serve", "--port", "0", "--model", "extractor=\(EmbedCommandTests.extractor)", "--l2-normalize",
        ])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics == [
                "error: --l2-normalize and --quantize apply to embedders, and no --model is served as one "
                    + "(a model without ImageEmbedder metadata needs --task embed)"
            ], "\(run)")
    }
}
