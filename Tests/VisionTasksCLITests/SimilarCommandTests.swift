import Foundation
import TestSupport
import Testing

/// `vision-tasks similar` on the built executable: the ranking MediaPipe's cosine similarities
/// give (`rankings` in `Tests/Reference/mediapipe_embedder_outputs.json`), cached embeddings, errors.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct SimilarCommandTests {
    static let images = TestData.url("images").path

    /// The matches of the first query of a json run: (file name, similarity), in order.
    static func matches(_ run: VisionTasksTool.Run) throws -> [(String, Double)] {
        let queries = run.jsonObjects(format: "json")
        let matches = try #require(queries.first?["matches"] as? [[String: Any]], "\(run)")
        return try matches.map { match in
            let image = try #require(match["image"] as? String)
            return (URL(fileURLWithPath: image).lastPathComponent, try #require(match["similarity"] as? Double))
        }
    }

    /// The issue's acceptance check: burger_crop.jpg is the first photo that is not burger.jpg
    /// itself resized (burger-224.png, its near-duplicate, which MediaPipe ranks first too).
    /// The whole order and every similarity (within 1e-6) are MediaPipe's, for both models.
    @Test(arguments: [EmbedCommandTests.embedderName, EmbedCommandTests.extractorName])
    func rankingIsMediaPipes(model: String) async throws {
        let reference = try #require(
            EmbedCommandTests.reference?.rankings.first { $0.model == model && $0.query == "burger.jpg" })
        let run = try await VisionTasksTool.run([
            "similar", "--model", TestData.model(model).path, "--query", Fixture.burger, "--format", "json", Self.images,
        ])
        #expect(run.status == 0, "\(run)")
        let matches = try Self.matches(run)
        let expected = reference.similarities.filter { $0.key != "burger.jpg" }.sorted { $0.value > $1.value }
        #expect(matches.map(\.0) == expected.map(\.key), "the query itself is left out, the rest in MediaPipe's order")
        for ((image, ours), (_, theirs)) in zip(matches, expected) {
            #expect(abs(ours - theirs) <= 1e-6, "\(image): \(ours), MediaPipe \(theirs)")
        }
        #expect(matches.prefix(2).map(\.0) == ["burger-224.png", "burger_crop.jpg"])
    }

    @Test func tableListsTheTopMatches() async throws {
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--query", Fixture.burger, "--top", "2", Self.images,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdoutLines == [
                Fixture.burger,
                "  rank  similarity  image",
                "     1     0.97113  \(Fixture.burgerPNG)",
                "     2     0.89463  \(Fixture.burgerCrop)",
            ], "\(run)")
    }

    /// Embeddings `embed` printed are used as they are, not made again: a record whose values
    /// are the query's own makes its photo the first match, at 1.
    @Test func cachedEmbeddingsAreReused() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let embed = try await VisionTasksTool.run([
            "embed", "--model", EmbedCommandTests.embedder, "--format", "jsonl", Self.images,
        ])
        try #require(embed.status == 0, "\(embed)")
        let records = embed.stdoutLines
        let burger = try #require(records.first { $0.contains("\"image\":\"\(Fixture.burger)\"") })
        let sparrow = burger.replacingOccurrences(of: Fixture.burger, with: Fixture.sparrowPNG)
        let edited = records.filter { !$0.contains("\"image\":\"\(Fixture.sparrowPNG)\"") } + [sparrow]
        let cache = folder.appendingPathComponent("embeddings.jsonl")
        // A run killed while writing: the torn last line is left out.
        try Data((edited.joined(separator: "\n") + "\n" + #"{"image":"torn"#).utf8).write(to: cache)
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--embeddings", cache.path, "--query", Fixture.burger,
            "--format", "json", Self.images,
        ])
        #expect(run.status == 0, "\(run)")
        let matches = try Self.matches(run)
        #expect(matches.first?.0 == "sparrow.png" && matches.first?.1 == 1, "\(run)")
        #expect(matches.dropFirst().prefix(2).map(\.0) == ["burger-224.png", "burger_crop.jpg"])
    }

    /// The model is loaded even when the file has every photo: a file made with another model
    /// is refused, naming both; so is one made with the same model but L2-normalized, and one
    /// of another model of the same size (before, those were ranked: the identical photo scored
    /// 0.92742 instead of 1).
    @Test func aCacheOfAnotherModelIsRefused() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let embed = try await VisionTasksTool.run([
            "embed", "--model", EmbedCommandTests.extractor, "--format", "jsonl", Fixture.burger,
        ])
        let cache = folder.appendingPathComponent("extractor.jsonl")
        try Data(embed.stdout.utf8).write(to: cache)
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--embeddings", cache.path, "--query", Fixture.burger, Self.images,
        ])
        #expect(run.status == 1, "\(run)")
        // The exact words are EmbeddingLayerTests'; here both models are named with their tensors.
        let message = try #require(run.diagnostics.first, "\(run)")
        #expect(
            message.hasPrefix(
                "error: INVALID_ARGUMENT: \(cache.path): The embedding of \(Fixture.burger) was made by "
                    + "mobilenet_v1_1.0_224_quant_embedding_extractor.tflite (SHA-256 ")
                && message.contains(
                    #"tensor "MobilenetV1/Logits/AvgPool_1a/AvgPool"); this run embeds with "#
                        + "mobilenet_v2_035_96_embedder_with_metadata.tflite (SHA-256 "),
            "\(run)")

        let normalized = try await VisionTasksTool.run([
            "embed", "--model", EmbedCommandTests.extractor, "--l2-normalize", "--format", "jsonl", Fixture.burger,
        ])
        try Data(normalized.stdout.utf8).write(to: cache)
        let same = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.extractor, "--embeddings", cache.path, "--query", Fixture.burger, Self.images,
        ])
        #expect(same.status == 1 && same.stderr.contains("L2-normalized); this run embeds with"), "\(same)")

        // Another model of the same size: the first model with one weight changed.
        let model = try Data(contentsOf: URL(fileURLWithPath: EmbedCommandTests.extractor))
        let other = folder.appendingPathComponent("other.tflite")
        try Self.withATrailingByte(model).write(to: other)
        let otherEmbed = try await VisionTasksTool.run(["embed", "--model", other.path, "--format", "jsonl", Fixture.burger])
        #expect(otherEmbed.status == 0, "\(otherEmbed)")
        try Data(otherEmbed.stdout.utf8).write(to: cache)
        let sameSize = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.extractor, "--embeddings", cache.path, "--query", Fixture.burger, Self.images,
        ])
        #expect(sameSize.status == 1 && sameSize.stderr.contains("was made by other.tflite (SHA-256"), "\(sameSize)")
    }

    /// `model` with a byte after its end: another file (another SHA-256) that loads and embeds
    /// with the same size.
    static func withATrailingByte(_ model: Data) -> Data { model + Data([0]) }

    @Test func theImageOptionsCannotApplyToACache() async throws {
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--embeddings", "any.jsonl", "--rotation", "180", "--query",
            Fixture.burger, Self.images,
        ])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("--embeddings cannot be combined with --roi, --rotation or --decode fast"), "\(run)")
    }

    /// Each file is listed once however it is named, and the query's own file never, a hard link included.
    @Test func eachFileCountsOnceAndTheQueryNever() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let query = folder.appendingPathComponent("query.jpg").path
        let hardLink = folder.appendingPathComponent("same-file.jpg").path
        try FileManager.default.copyItem(atPath: Fixture.burger, toPath: query)
        try FileManager.default.linkItem(atPath: query, toPath: hardLink)
        let dotted = TestData.url("images/./sparrow.png").path
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--query", query, "--format", "json", hardLink, Fixture.sparrowPNG,
            dotted, Fixture.burgerCrop,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(try Self.matches(run).map(\.0) == ["burger_crop.jpg", "sparrow.png"], "\(run)")
    }

    @Test func aQuantizedCacheIsRefusedNamingTheFile() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let embed = try await VisionTasksTool.run(
            ["embed", "--model", EmbedCommandTests.embedder, "--quantize", "--format", "jsonl", Fixture.burger])
        let cache = folder.appendingPathComponent("quantized.jsonl")
        try Data(embed.stdout.utf8).write(to: cache)
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--embeddings", cache.path, "--query", Fixture.burger, Self.images,
        ])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics == [
                "error: INVALID_ARGUMENT: \(cache.path): The record of \(Fixture.burger) holds a quantized embedding; "
                    + "similar compares float embeddings (make the file with `vision-tasks embed --format jsonl` without --quantize)."
            ], "\(run)")
    }

    @Test func aCacheThatIsNotEmbedOutputIsRefused() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("notes.txt")
        try Data("hello\nworld\n".utf8).write(to: cache)
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--embeddings", cache.path, "--query", Fixture.burger, Self.images,
        ])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stderr.contains("\(cache.path): It is not the output of `vision-tasks embed --format jsonl` (or json)"), "\(run)")
    }

    /// A query that cannot be embedded gets its error as its record; the other queries are answered.
    @Test func aBrokenQueryFailsAloneWithItsError() async throws {
        let missing = "/nonexistent/query.jpg"
        let run = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--query", missing, "--query", Fixture.burger, "--top", "1",
            "--format", "jsonl", Fixture.burgerCrop, Fixture.sparrowPNG,
        ])
        #expect(run.status == 1, "\(run)")
        let records = run.jsonObjects(format: "jsonl")
        try #require(records.count == 2, "\(run)")
        #expect(records[0]["query"] as? String == missing)
        #expect((records[0]["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
        #expect((records[1]["matches"] as? [[String: Any]])?.first?["image"] as? String == Fixture.burgerCrop)
        #expect(run.diagnostics.isEmpty, "the error is in the query's record only: \(run)")
    }

    @Test func usageErrors() async throws {
        let noQuery = try await VisionTasksTool.run(["similar", "--model", EmbedCommandTests.embedder, Self.images])
        #expect(noQuery.status == 2 && noQuery.stderr.contains("give at least one --query PHOTO"), "\(noQuery)")
        let noImages = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--query", Fixture.burger,
        ])
        #expect(noImages.status == 2 && noImages.stderr.contains("no image given to rank"), "\(noImages)")
        let quantize = try await VisionTasksTool.run([
            "similar", "--model", EmbedCommandTests.embedder, "--quantize", "--query", Fixture.burger, Self.images,
        ])
        #expect(quantize.status == 2 && quantize.stderr.contains("--quantize"), "\(quantize)")
    }
}
