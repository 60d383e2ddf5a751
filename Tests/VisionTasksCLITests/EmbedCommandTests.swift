import Foundation
import TestSupport
import Testing

/// `vision-tasks embed` on the built executable: MediaPipe's embeddings
/// (`Tests/Reference/mediapipe_embedder_outputs.json`) in every output format.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct EmbedCommandTests {
    static let embedderName = "mobilenet_v2_035_96_embedder_with_metadata.tflite"
    static let extractorName = "mobilenet_v1_1.0_224_quant_embedding_extractor.tflite"
    static let embedder = TestData.model(embedderName).path
    static let extractor = TestData.model(extractorName).path
    static let reference = try? EmbedderReference.load()

    struct Case: Sendable, CustomTestStringConvertible {
        let model: String
        let l2Normalize: Bool
        let quantize: Bool
        var testDescription: String { "\(model) l2Normalize \(l2Normalize) quantize \(quantize)" }
        var options: [String] { (l2Normalize ? ["--l2-normalize"] : []) + (quantize ? ["--quantize"] : []) }
    }

    static let cases = [embedderName, extractorName].flatMap { model in
        [(false, false), (true, false), (false, true), (true, true)].map { Case(model: model, l2Normalize: $0, quantize: $1) }
    }

    /// The issue's acceptance check among them: the tiny embedder on burger.jpg prints 1,280
    /// floats equal to MediaPipe's (within 1e-5). Quantized values are equal.
    @Test(arguments: cases)
    func jsonRecordsAreMediaPipes(item: Case) async throws {
        let reference = try #require(Self.reference)
        let images = ["burger.jpg", "sparrow.png"]
        let run = try await VisionTasksTool.run(
            ["embed", "--model", TestData.model(item.model).path, "--format", "json"] + item.options
                + images.map { TestData.image($0).path })
        #expect(run.status == 0, "\(run)")
        let records = run.jsonObjects(format: "json")
        try #require(records.count == images.count, "\(run)")
        for (record, image) in zip(records, images) {
            #expect(record["image"] as? String == TestData.image(image).path)
            let expected = try #require(
                reference.plain(model: item.model, image: image, l2Normalize: item.l2Normalize, quantize: item.quantize))
            let embeddings = try #require(record["embeddings"] as? [[String: Any]])
            try #require(embeddings.count == 1)
            let embedding = embeddings[0]
            #expect(embedding["headIndex"] as? Int == 0)
            #expect(embedding["headName"] as? String == expected.headName)
            if let floats = expected.floatEmbedding {
                #expect(embedding["quantizedEmbedding"] == nil)
                let ours = try #require(embedding["floatEmbedding"] as? [NSNumber]).map(\.floatValue)
                #expect(ours.count == floats.count)
                let worst = zip(ours, floats).map { abs($0 - $1) }.max() ?? .infinity
                #expect(worst <= 1e-5, "\(item) \(image): largest difference \(worst)")
            } else {
                #expect(embedding["floatEmbedding"] == nil)
                let ours = try #require(embedding["quantizedEmbedding"] as? [Int])
                #expect(ours == expected.quantizedEmbedding?.map(Int.init), "\(item) \(image)")
            }
        }
        #expect(run.diagnostics == (try Self.saturationWarning(item, images: images, reference)), "\(run)")
    }

    /// The one warning `--quantize` without `--l2-normalize` gives when more than 1% of MediaPipe's
    /// quantized values sit at the int8 limits (the MobileNet v1 extractor's raw values do), else none.
    static func saturationWarning(_ item: Case, images: [String], _ reference: EmbedderReference) throws -> [String] {
        guard item.quantize, !item.l2Normalize else { return [] }
        let values = try images.flatMap { image in
            try #require(reference.plain(model: item.model, image: image, l2Normalize: false, quantize: true)?.quantizedEmbedding)
        }
        let saturated = values.count { $0 == 127 || $0 == -128 }
        guard saturated * 100 > values.count else { return [] }
        let share = String(format: "%.1f", Double(saturated) * 100 / Double(values.count))
        return [
            "warning: --quantize clamped \(saturated) of \(values.count) values (\(share) %) at the int8 limits: the "
                + "embeddings are not unit-norm; give --l2-normalize too (the values are kept, as MediaPipe gives them)"
        ]
    }

    /// The extractor's raw values saturate: the warning is there (the case above checks its text).
    @Test func rawExtractorValuesSaturate() throws {
        let reference = try #require(Self.reference)
        let item = Case(model: Self.extractorName, l2Normalize: false, quantize: true)
        #expect(try Self.saturationWarning(item, images: ["burger.jpg"], reference).count == 1)
    }

    /// jsonl, csv and npy hold json's values: the same floats, bit for bit.
    @Test func everyFormatHoldsTheSameValues() async throws {
        let images = [Fixture.burger, Fixture.sparrowPNG]
        let json = try await VisionTasksTool.run(["embed", "--model", Self.embedder, "--format", "json"] + images)
        try #require(json.status == 0, "\(json)")
        let expected = try json.jsonObjects(format: "json").map(Self.floats)

        let jsonl = try await VisionTasksTool.run(["embed", "--model", Self.embedder, "--format", "jsonl"] + images)
        #expect(try jsonl.jsonObjects(format: "jsonl").map(Self.floats) == expected)

        let csv = try await VisionTasksTool.run(["embed", "--model", Self.embedder, "--format", "csv"] + images)
        let lines = csv.stdoutLines
        try #require(lines.count == 3, "\(csv)")
        #expect(lines[0] == "image,headIndex,headName,embedding,error")
        for (line, (image, values)) in zip(lines.dropFirst(), zip(images, expected)) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 5, "\(line.prefix(200))")
            #expect(fields.first == image && fields[1] == "0" && fields[2] == "StatefulPartitionedCall:0")
            #expect(fields[3].split(separator: " ").map { Float(String($0)) } == values.map { $0 }, "csv values of \(image)")
        }

        let npy = try await Self.npy(["--model", Self.embedder] + images)
        #expect(npy.status == 0, "\(npy)")
        let array = try NumPyArray(npy.stdout)
        #expect(array.descr == "<f4" && array.shape == [2, 1280])
        #expect(array.floats == expected.flatMap { $0 })
    }

    /// A list file's end is known: npy from it holds the rows of its images in the list's order,
    /// as from arguments; standard input keeps the jsonl rule.
    @Test func npyFromAListFileIsTheArgumentsArray() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = [Fixture.sparrowPNG, Fixture.burger, Fixture.sparrowPNG]
        let list = folder.appendingPathComponent("list.txt")
        try Data(images.map { $0 + "\n" }.joined().utf8).write(to: list)
        let fromList = try await Self.npy(["--model", Self.embedder, "--files-from", list.path])
        let fromArguments = try await Self.npy(["--model", Self.embedder] + images)
        #expect(fromList.status == 0 && fromArguments.status == 0, "\(fromList)")
        #expect(try NumPyArray(fromList.stdout).shape == [3, 1280])
        #expect(fromList.stdout == fromArguments.stdout)
        let piped = try await Self.npy(["--model", Self.embedder, "--files-from", "-"])
        #expect(piped.status == 2, "\(piped)")
        #expect(piped.stderr.contains("cannot follow a list as it arrives (standard input or a pipe)"), "\(piped)")
    }

    /// The copies Jupyter and macOS leave in a folder are not embedded; each folder is named once.
    @Test func hiddenFoldersAreSkippedWithAWarning() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["", ".ipynb_checkpoints/", "__MACOSX/"] {
            let target = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: Fixture.burger), to: target.appendingPathComponent("burger.jpg"))
        }
        let run = try await VisionTasksTool.run(["embed", "--model", Self.embedder, "--format", "jsonl", folder.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.jsonObjects(format: "jsonl").count == 1)
        let words =
            ": skipped: a hidden or metadata folder (.ipynb_checkpoints, .thumbnails, __MACOSX, @eaDir, ...); its files are not read"
        #expect(
            run.diagnostics == [".ipynb_checkpoints", "__MACOSX"].map { folder.appendingPathComponent($0).path + words }, "\(run)"
        )
    }

    @Test func quantizedNpyIsInt8() async throws {
        let json = try await VisionTasksTool.run(
            ["embed", "--model", Self.extractor, "--l2-normalize", "--quantize", "--format", "jsonl", Fixture.burger])
        let record = try #require(json.jsonObjects(format: "jsonl").first)
        let values = try #require((record["embeddings"] as? [[String: Any]])?.first?["quantizedEmbedding"] as? [Int])
        let npy = try await Self.npy(["--model", Self.extractor, "--l2-normalize", "--quantize", Fixture.burger])
        let array = try NumPyArray(npy.stdout)
        #expect(array.descr == "|i1" && array.shape == [1, 1024])
        #expect(array.int8s.map(Int.init) == values)
    }

    /// A row cannot hold an error: the failed image is named on stderr and no array is written.
    @Test func npyWithAFailedImageWritesNoArray() async throws {
        let missing = "/nonexistent/photo.jpg"
        let npy = try await Self.npy(["--model", Self.embedder, Fixture.burger, missing])
        #expect(npy.status == 1, "\(npy)")
        #expect(npy.stdout.isEmpty)
        #expect(npy.stderr.contains("\(missing): error: NOT_FOUND: "), "\(npy)")
    }

    @Test func npyIsRefusedByClassify() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "npy", Fixture.burger])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("npy"), "\(run)")
    }

    /// The table gives each head's size, norm and first values (MediaPipe's, at five decimals).
    @Test func tableSummarizesEachHead() async throws {
        let reference = try #require(Self.reference)
        let floats = try #require(reference.plain(model: Self.embedderName, image: "burger.jpg")?.floatEmbedding)
        let run = try await VisionTasksTool.run(["embed", "--model", Self.embedder, Fixture.burger])
        #expect(run.status == 0, "\(run)")
        let norm = floats.reduce(0) { $0 + Double($1) * Double($1) }.squareRoot()
        let first = floats.prefix(4).map { String(format: "%.5f", $0) }.joined(separator: " ")
        #expect(
            run.stdoutLines == [
                Fixture.burger,
                "  head 0 (StatefulPartitionedCall:0): 1280 floats, L2 norm \(String(format: "%.5f", norm)): \(first) ... "
                    + String(format: "%.5f", floats.last ?? 0),
            ], "\(run)")
    }

    /// The batch options work as for classify: a list on stdin, two workers, input order kept.
    @Test func filesFromStandardInputWithTwoJobs() async throws {
        let images = [Fixture.burger, Fixture.sparrowPNG, Fixture.burgerCrop]
        let executable = try #require(VisionTasksTool.executable)
        let run = try await ExternalProgram.run(
            executable.path, ["embed", "--model", Self.embedder, "--files-from", "-", "--jobs", "2"],
            input: Data(images.map { $0 + "\n" }.joined().utf8))
        #expect(run.status == 0, "\(run)")
        let lines = run.text.split(separator: "\n").map {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.map { $0?["image"] as? String } == images, "\(run.text.prefix(300))")
    }

    /// The floats of a record's first head.
    static func floats(_ record: [String: Any]) throws -> [Float] {
        let embeddings = try #require(record["embeddings"] as? [[String: Any]])
        return try #require(embeddings.first?["floatEmbedding"] as? [NSNumber]).map(\.floatValue)
    }

    /// `embed --format npy ARGUMENTS`, with standard output as bytes.
    static func npy(_ arguments: [String]) async throws -> ExternalProgram.Run {
        let executable = try #require(VisionTasksTool.executable)
        return try await ExternalProgram.run(executable.path, ["embed", "--format", "npy"] + arguments)
    }
}

/// A `.npy` file (format 1.0) as `numpy.load` reads it: the header's dtype and shape, and the data.
struct NumPyArray {
    let descr: String
    let shape: [Int]
    let data: Data

    init(_ file: Data) throws {
        let bytes = [UInt8](file)
        try #require(bytes.count >= 10 && bytes[0] == 0x93 && Array(bytes[1...5]) == Array("NUMPY".utf8), "not a .npy file")
        try #require(bytes[6] == 1 && bytes[7] == 0, "version \(bytes[6]).\(bytes[7])")
        let length = Int(bytes[8]) | Int(bytes[9]) << 8
        try #require((10 + length) % 64 == 0, "the header is padded to 64 bytes")
        let header = String(decoding: bytes[10..<10 + length], as: UTF8.self)
        try #require(header.hasSuffix("\n") && header.contains("'fortran_order': False"), "\(header)")
        descr = try #require(Self.match(#"'descr': '([^']*)'"#, in: header))
        let dimensions = try #require(Self.match(#"'shape': \(([^)]*)\)"#, in: header))
        shape = dimensions.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        data = Data(bytes[(10 + length)...])
        let itemSize = descr == "<f4" ? 4 : 1
        try #require(data.count == shape.reduce(1, *) * itemSize, "\(data.count) data bytes for shape \(shape)")
    }

    var floats: [Float] { Self.littleEndianFloats(data) }

    /// `data` read as little-endian float32 values (a trailing partial value is ignored).
    static func littleEndianFloats(_ data: Data) -> [Float] {
        stride(from: 0, to: data.count - 3, by: 4).map { offset in
            let start = data.startIndex + offset
            return Float(bitPattern: data[start..<start + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
    }

    var int8s: [Int8] { data.map { Int8(bitPattern: $0) } }

    private static func match(_ pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let found = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(found.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }
}
