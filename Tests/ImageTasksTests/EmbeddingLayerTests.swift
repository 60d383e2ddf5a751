import Foundation
import ImageTasks
import ServedModels
import TasksCommon
import TestSupport
import Testing
import VisionTasks

/// The embedder's pieces of the task layer, in process: the result check, the cache of `embed`
/// output that `similar` reads, the ranking and the choice of a served model's task.
struct EmbeddingLayerTests {
    static func float(_ values: [Float], head: Int = 0) -> Embedding {
        Embedding(floatEmbedding: values, quantizedEmbedding: nil, headIndex: head, headName: nil)
    }

    @Test func aNonFiniteElementIsOutOfRangeNamingIt() {
        #expect(EmbeddingOutput(embeddings: [Self.float([1, 2, 3])]).failure == nil)
        let failure = EmbeddingOutput(embeddings: [Self.float([1, .infinity, .nan])]).failure
        #expect(failure?.code == .outOfRangeError)
        #expect(
            failure?.reason
                == "element 1 of the embedding is not a finite number (inf); the model's output is not a feature vector.")
        let twoHeads = EmbeddingOutput(embeddings: [Self.float([1]), Self.float([0, 0, .nan], head: 1)]).failure
        #expect(twoHeads?.reason.hasPrefix("head 1, element 2 of the embedding is not a finite number (nan)") == true)
    }

    /// What `record` writes reads back as the same embedding (the round trip `similar --embeddings` relies on).
    @Test func recordsRoundTrip() throws {
        let embeddings = [
            Embedding(floatEmbedding: [0.1, -2.5e-8, 3], quantizedEmbedding: nil, headIndex: 0, headName: "features"),
            Embedding(floatEmbedding: nil, quantizedEmbedding: [-128, 0, 127], headIndex: 1, headName: nil),
        ]
        let output = EmbeddingOutput(embeddings: embeddings)
        let text = try JSONText.encode(output.record)
        #expect(text.contains(#""headName":null"#), "an absent name is null, as MediaPipe's records have it: \(text)")
        #expect(!text.contains("quantizedEmbedding\":null"), "the embedding that is not set is left out: \(text)")
        let decoded = try JSONDecoder().decode([EmbeddingRecord].self, from: Data(text.utf8))
        #expect(decoded.map(\.embedding) == embeddings)
    }

    final class Folder {
        let url: URL
        init() throws { url = try TestData.temporaryDirectory() }
        deinit { try? FileManager.default.removeItem(at: url) }

        func file(_ name: String, _ text: String) throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static let source = EmbeddingSource(
        model: "m.tflite", modelSHA256: String(repeating: "ab", count: 32), outputTensor: "embedding", l2Normalize: false,
        quantize: false)
    static let sourceJSON =
        #""source":{"model":"m.tflite","modelSHA256":"\#(String(repeating: "ab", count: 32))","outputTensor":"embedding","#
        + #""l2Normalize":false,"quantize":false}"#

    @Test func theCacheReadsJSONLinesAndArraysSkippingErrorsAndATornLine() throws {
        let folder = try Folder()
        let lines = [
            #"{"image":"a.jpg","embeddings":[{"headIndex":0,"headName":null,"floatEmbedding":[1,0],"# + Self.sourceJSON + "}]}",
            #"{"image":"b.jpg","error":{"code":"NOT_FOUND","message":"gone"}}"#,
            #"{"image":"c.jpg","embeddings":[{"headIndex":0,"headName":"h","floatEmbedding":[0,1]},"#,
        ]
        let jsonl = try EmbeddingCache.read(try folder.file("cache.jsonl", lines.joined(separator: "\n")), madeBy: Self.source)
        #expect(jsonl == ["a.jpg": Self.float([1, 0])])
        let array = try EmbeddingCache.read(try folder.file("cache.json", "[\(lines[0]),\(lines[1])]"), madeBy: Self.source)
        #expect(array == jsonl)
        // A copy of the model under another name makes the same values.
        var copy = Self.source
        copy.model = "copy.tflite"
        #expect(try EmbeddingCache.read(try folder.file("copy.jsonl", lines[0]), madeBy: copy) == jsonl)
    }

    /// An embedding another model (of the same size), tensor or option made is refused, naming
    /// both; so is one whose record does not say.
    @Test func embeddingsOfAnotherModelOrOptionsAreRefused() throws {
        let folder = try Folder()
        let line =
            #"{"image":"a.jpg","embeddings":[{"headIndex":0,"headName":null,"floatEmbedding":[1,0],"# + Self.sourceJSON + "}]}"
        let path = try folder.file("cache.jsonl", line)
        var other = Self.source
        other.model = "other.tflite"
        other.modelSHA256 = String(repeating: "cd", count: 32)
        var normalized = Self.source
        normalized.l2Normalize = true
        for (source, made) in [
            (other, #"other.tflite (SHA-256 cdcdcdcdcdcd…, tensor "embedding")"#),
            (normalized, #"m.tflite (SHA-256 abababababab…, tensor "embedding", L2-normalized)"#),
        ] {
            #expect(
                throws: TasksError.invalidArgument(
                    #"The embedding of a.jpg was made by m.tflite (SHA-256 abababababab…, tensor "embedding"); this run "#
                        + "embeds with \(made). Embeddings of different models or options do not compare: make the file "
                        + "with this run's model and options, or give that model.", subject: .file(path))
            ) { try EmbeddingCache.read(path, madeBy: source) }
        }
        let unsaid = try folder.file("old.jsonl", #"{"image":"a.jpg","embeddings":[{"headIndex":0,"floatEmbedding":[1,0]}]}"#)
        #expect(
            throws: TasksError.invalidArgument(
                "The record of a.jpg does not say which model made its embedding (a file from an older `embed`); make it "
                    + "again with `vision-tasks embed --model m.tflite --format jsonl`.", subject: .file(unsaid))
        ) { try EmbeddingCache.read(unsaid, madeBy: Self.source) }
    }

    @Test func aTornLineInTheMiddleIsAnError() throws {
        let folder = try Folder()
        let path = try folder.file("cache.jsonl", "{\"image\":\"a\n{\"image\":\"b.jpg\",\"embeddings\":[]}\n")
        #expect {
            try EmbeddingCache.read(path, madeBy: Self.source)
        } throws: { error in
            let error = error as? TasksError
            return error?.code == .invalidArgumentError && error?.subject == .file(path)
                && error?.reason.hasPrefix("It is not the output of `vision-tasks embed --format jsonl` (or json): ") == true
        }
    }

    @Test func rankingIsBySimilarityThenInputOrder() throws {
        let query = Self.float([1, 0])
        let candidates = [
            ("orthogonal", Self.float([0, 1])), ("same", Self.float([2, 0])), ("tie A", Self.float([1, 1])),
            ("opposite", Self.float([-1, 0])), ("tie B", Self.float([1, 1])),
        ].map { (image: $0.0, embedding: $0.1) }
        let ranked = try SimilarityRanking.rank(query: query, candidates: candidates, top: nil)
        #expect(ranked.map(\.image) == ["same", "tie A", "tie B", "orthogonal", "opposite"])
        #expect(abs(ranked[1].similarity - 0.5.squareRoot()) < 1e-15)
        #expect(ranked.last?.similarity == -1)
        #expect(try SimilarityRanking.rank(query: query, candidates: candidates, top: 2).map(\.image) == ["same", "tie A"])
    }

    @Test func rankingNamesTheCandidateItCannotCompare() {
        let candidates = [(image: "short.jpg", embedding: Self.float([1, 2, 3]))]
        #expect {
            try SimilarityRanking.rank(query: Self.float([1, 0]), candidates: candidates, top: nil)
        } throws: { error in
            let error = error as? TasksError
            return error?.code == .invalidArgumentError && error?.subject == .file("short.jpg")
        }
    }

    @Test(
        "auto serves MediaPipe's embedder models as embedders, anything else as a classifier",
        .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)),
        arguments: [
            ("mobilenet_v2_035_96_embedder_with_metadata.tflite", ServedTaskKind.embedder),
            ("mobilenet_v1_1.0_224_quant_embedding_extractor.tflite", .classifier),
            ("mobilenet_v1_0.25_224_quant.tflite", .classifier),
        ])
    func autoTask(model: String, expected: ServedTaskKind) throws {
        let path = TestData.model(model).path
        #expect(try ServedModelSpec.Task.auto.resolved(forModelAt: path) == expected)
        #expect(try ServedModelSpec.Task.embed.resolved(forModelAt: path) == .embedder)
        #expect(try ServedModelSpec.Task.classify.resolved(forModelAt: path) == .classifier)
    }

    @Test func autoNamesAModelItCannotRead() throws {
        let folder = try Folder()
        let path = try folder.file("not-a-model.tflite", "hello")
        #expect {
            try ServedModelSpec.Task.auto.resolved(forModelAt: path)
        } throws: { error in
            (error as? TasksError)?.subject == .file(path)
        }
    }
}
