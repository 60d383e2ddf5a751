import Foundation
import ImageTasks
import ServedModels
import TestSupport
import Testing
import VisionTasks

@testable import ModelServer

/// An embedder served in process: the OIP output `embedding` ([B, D], FP32 or INT8) and
/// `/v1/models/NAME/embed`, against `ImageEmbedder`'s own vectors.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct RequestHandlerEmbedTests {
    static let photos = [HandlerHarness.burger, HandlerHarness.sparrow]

    /// The library's embeddings of the photos (the first head of each).
    static func libraryEmbeddings(l2Normalize: Bool = false, quantize: Bool = false) throws -> [Embedding] {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = HandlerHarness.embedder
        options.l2Normalize = l2Normalize
        options.quantize = quantize
        let embedder = try ImageEmbedder(options: options)
        return try photos.map { try embedder.embed(image: MPImage(contentsOf: $0)).embeddingResult.embeddings[0] }
    }

    /// The tiny embedder's metadata is named "ImageEmbedder": served with `task: .auto`, it embeds.
    @Test func theMetadataSaysItEmbedsAndInferGivesFP32() throws {
        let handler = try HandlerHarness.handler()
        let metadata = try #require(handler.handle("GET", "/v2/models/tiny").json as? [String: Any])
        #expect(metadata["task"] as? String == "embed" && metadata["platform"] as? String == "tflite_embedder")
        let outputs = try #require(metadata["outputs"] as? [[String: Any]])
        #expect(outputs.first?["name"] as? String == "embedding" && outputs.first?["datatype"] as? String == "FP32")
        #expect(outputs.first?["shape"] as? [Int] == [-1, 1280])
        let reply = handler.handle("POST", "/v2/models/tiny/infer", body: try InferBody.json())
        let output = try InferBody.firstOutput(reply)
        #expect(output["datatype"] as? String == "FP32" && output["shape"] as? [Int] == [2, 1280])
        let data = try #require(output["data"] as? [NSNumber]).map(\.floatValue)
        #expect(data == (try Self.libraryEmbeddings().flatMap { $0.floatEmbedding ?? [] }), "rows in request order")
    }

    @Test func binaryOutputIsLittleEndianFloats() throws {
        let handler = try HandlerHarness.handler()
        let reply = handler.handle(
            "POST", "/v2/models/tiny/infer",
            body: try InferBody.json(outputs: [["name": "embedding", "parameters": ["binary_data": true]]]))
        let length = try #require(
            reply.header("Inference-Header-Content-Length").flatMap { Int($0) }, "\(reply.text.prefix(200))")
        let binary = Data(reply.body.dropFirst(length))
        #expect(binary.count == 2 * 1280 * 4)
        let floats = stride(from: 0, to: binary.count, by: 4).map { offset in
            Float(bitPattern: binary[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) })
        }
        #expect(floats == (try Self.libraryEmbeddings().flatMap { $0.floatEmbedding ?? [] }))
    }

    @Test func quantizedServingGivesINT8() throws {
        var options = ServingCatalog.Options()
        (options.l2Normalize, options.quantize) = (true, true)
        let catalog = try ServingCatalog(
            [ServedModelSpec(name: "tiny", source: .model(path: HandlerHarness.embedder), task: .embed, workers: 1)],
            options: options)
        let reply = try HandlerHarness.handler(catalog).handle("POST", "/v2/models/tiny/infer", body: try InferBody.json())
        let output = try InferBody.firstOutput(reply)
        #expect(output["datatype"] as? String == "INT8" && output["shape"] as? [Int] == [2, 1280])
        let expected = try Self.libraryEmbeddings(l2Normalize: true, quantize: true).flatMap {
            ($0.quantizedEmbedding ?? []).map(Int.init)
        }
        #expect(output["data"] as? [Int] == expected)
    }

    @Test func v1EmbedGivesTheRecords() throws {
        let handler = try HandlerHarness.handler()
        let reply = try handler.post(files: Self.photos, to: "/v1/models/tiny/embed")
        let records = try #require(reply.json as? [[String: Any]], "\(reply.text.prefix(200))")
        #expect(records.map { $0["image"] as? String } == ["burger.jpg", "sparrow.jpg"])
        let served = records.map { record in
            ((record["embeddings"] as? [[String: Any]])?.first?["floatEmbedding"] as? [NSNumber])?.map(\.floatValue)
        }
        #expect(served == (try Self.libraryEmbeddings().map(\.floatEmbedding)))
    }
}
