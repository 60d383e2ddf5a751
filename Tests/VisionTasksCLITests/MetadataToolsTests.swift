import Foundation
import TestSupport
import Testing

/// `vision-tasks inspect` and `vision-tasks metadata write` as a user runs them.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct MetadataToolsTests {
    static let models = TestData.url("models").path

    @Test func inspectShowsWhyMediaPipeRefusesTheBareFloatModel() async throws {
        let run = try await VisionTasksTool.run(["inspect", "\(Self.models)/mobilenet_v1_0.25_224_1_default_1.tflite"])
        #expect(run.status == 0, "\(run)")
        let refusal =
            "refused: Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess input images."
        #expect(run.stdoutLines.contains("  MediaPipe ImageClassifier: \(refusal)"), "\(run)")
        #expect(run.stdoutLines.contains("  vision-tasks: \(refusal)\(addNormalizationHint)"), "\(run)")
        #expect(run.stdoutLines.contains("  metadata: none"), "\(run)")
        #expect(run.stdoutLines.contains("  head 0: 1001 categories; no labels"), "\(run)")
    }

    @Test func inspectJSONUsesTheSchemaNames() async throws {
        let run = try await VisionTasksTool.run(
            ["inspect", "--format", "json", "\(Self.models)/generated/mobilenet_v1_0.25_224_quant_calibrated.tflite"])
        #expect(run.status == 0, "\(run)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["min_parser_version"] as? String == "1.0.0")
        let subgraph = try #require((object["subgraph_metadata"] as? [[String: Any]])?.first)
        let output = try #require((subgraph["output_tensor_metadata"] as? [[String: Any]])?.first)
        let unit = try #require((output["process_units"] as? [[String: Any]])?.first)
        #expect(unit["options_type"] as? String == "ScoreCalibrationOptions")
        #expect((unit["options"] as? [String: Any])?["score_transformation"] as? String == "INVERSE_LOGISTIC")
        let heads = try #require(object["heads"] as? [[String: Any]])
        #expect(heads.first?["label_count"] as? Int == 1001)
        #expect((object["mediapipe_image_classifier"] as? [String: Any])?["accepted"] as? Bool == true)
        let outputs = try #require(object["output_tensors"] as? [[String: Any]])
        #expect((outputs.first?["quantization"] as? [String: Any])?["scale"] as? [Double] == [0.00390625])
    }

    @Test func writtenBareFloatModelClassifiesLikeTheReference() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = folder.appendingPathComponent("labels.txt")
        let referenceModel = "\(Self.models)/mobilenet_v1_0.25_224_1_metadata_1.tflite"
        try await packedLabels(referenceModel).write(to: labels)
        let output = folder.appendingPathComponent("model.tflite").path
        let write = try await VisionTasksTool.run([
            "metadata", "write", "\(Self.models)/mobilenet_v1_0.25_224_1_default_1.tflite", "--output", output,
            "--labels", labels.path, "--mean", "127.5", "--std", "127.5",
        ])
        #expect(write.status == 0 && write.stdoutLines == ["wrote \(output)"], "\(write)")
        let image = TestData.image("burger.jpg").path
        let written = try await VisionTasksTool.run(["classify", "--model", output, "--format", "json", image])
        let reference = try await VisionTasksTool.run(["classify", "--model", referenceModel, "--format", "json", image])
        #expect(
            written.status == 0 && !written.stdout.isEmpty
                && written.stdout == reference.stdout.replacingOccurrences(of: referenceModel, with: output),
            "\(written)\n\(reference)")
    }

    /// A calibration file as an editor saves it (a final newline), with the issue's function
    /// name: `sigmoid` is the schema's IDENTITY.
    @Test func calibrationFileWithFinalNewlineAndSigmoid() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let calibration = folder.appendingPathComponent("calibration.txt")
        try Data(String(repeating: "1.0,2.0,-1.0\n", count: 1001).utf8).write(to: calibration)
        let output = folder.appendingPathComponent("model.tflite").path
        let write = try await VisionTasksTool.run([
            "metadata", "write", "\(Self.models)/mobilenet_v1_0.25_224_quant.tflite", "--output", output,
            "--score-calibration", calibration.path, "--calibration-function", "sigmoid",
        ])
        #expect(write.status == 0, "\(write)")
        let inspect = try await VisionTasksTool.run(["inspect", "--format", "json", output])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let subgraph = try #require((object["subgraph_metadata"] as? [[String: Any]])?.first)
        let output0 = try #require((subgraph["output_tensor_metadata"] as? [[String: Any]])?.first)
        let units = try #require(output0["process_units"] as? [[String: Any]])
        let options = try #require(units.first { $0["options_type"] as? String == "ScoreCalibrationOptions" }?["options"])
        #expect((options as? [String: Any])?["score_transformation"] as? String == "IDENTITY", "\(inspect)")
    }

    /// A labels file with a UTF-8 byte order mark writes the same model as without it; one that
    /// is not UTF-8 is refused, naming the file, and writes nothing.
    @Test func labelsFileEncodings() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = Array((0..<1001).map { "label \($0)" }.joined(separator: "\n").utf8)
        let variants: [(String, [UInt8])] = [
            ("plain", text), ("bom", [0xEF, 0xBB, 0xBF] + text), ("latin1", text + Array("\ncaf".utf8) + [0xE9]),
        ]
        var runs: [String: (status: Int32, diagnostics: [String])] = [:]
        for (name, bytes) in variants {
            let labels = folder.appendingPathComponent(name).appendingPathComponent("labels.txt")
            try FileManager.default.createDirectory(at: labels.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: labels)
            let run = try await VisionTasksTool.run([
                "metadata", "write", "\(Self.models)/mobilenet_v1_0.25_224_1_default_1.tflite", "--output",
                folder.appendingPathComponent("\(name).tflite").path, "--labels", labels.path, "--mean", "127.5", "--std",
                "127.5",
            ])
            runs[name] = (run.status, run.diagnostics)
        }
        #expect(runs["plain"]?.status == 0 && runs["bom"]?.status == 0)
        let plain = try Data(contentsOf: folder.appendingPathComponent("plain.tflite"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("bom.tflite")) == plain)
        #expect(runs["latin1"]?.status == 1)
        let latin1 = folder.appendingPathComponent("latin1/labels.txt").path
        #expect(
            runs["latin1"]?.diagnostics.first
                == "error: INVALID_ARGUMENT: Labels file \(latin1) is not UTF-8 text (line 1002 has bytes that are not UTF-8); save it as UTF-8.",
            "\(String(describing: runs["latin1"]))")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("latin1.tflite").path))
    }

    /// --output naming a labels or calibration file given (here through another spelling of its
    /// path) is a usage error, and the file is left as it is.
    @Test func outputThatIsAnInputFileIsRefused() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let labels = folder.appendingPathComponent("labels.txt")
        let text = Data((0..<1001).map { "label \($0)" }.joined(separator: "\n").utf8)
        try text.write(to: labels)
        let output = folder.path + "/./labels.txt"
        let run = try await VisionTasksTool.run([
            "metadata", "write", "\(Self.models)/mobilenet_v1_0.25_224_1_default_1.tflite", "--output", output,
            "--labels-locale", "en=\(labels.path)", "--mean", "127.5", "--std", "127.5",
        ])
        #expect(run.status == 2, "\(run)")
        #expect(run.diagnostics.first == "error: --output '\(output)' is the input file '\(labels.path)'", "\(run)")
        #expect(try Data(contentsOf: labels) == text)
    }

    /// The labels file packed in `model`, as `unzip` (bootstrap installs it) extracts it.
    private func packedLabels(_ model: String) async throws -> Data {
        let unzip = try #require(ExternalProgram.find(["unzip"]), "unzip is needed to extract the reference labels")
        let run = try await ExternalProgram.run(unzip, ["-p", model, "labels.txt"])
        #expect(run.status == 0 && run.stdout.count > 10_000, "\(run)")
        return run.stdout
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["metadata", "write", "m.tflite"], message: "error: --output is required"),
        UsageCase(
            arguments: ["metadata", "m.tflite", "--output", "o"],
            message: "error: expected `metadata write MODEL --output OUT ...`, got 'm.tflite'"),
        UsageCase(
            arguments: ["metadata", "write", "m.tflite", "--output", "o", "--mean", "1"],
            message: "error: give --mean and --std together"),
        UsageCase(
            arguments: ["metadata", "write", "m.tflite", "--output", "o", "--mean", "1,2", "--std", "1"],
            message: "error: --mean expects one number or three separated by commas (R,G,B), got '1,2'"),
        UsageCase(
            arguments: [
                "metadata", "write", "m.tflite", "--output", "o", "--score-calibration", "c.txt", "--calibration-function",
                "tanh",
            ],
            message: "error: --calibration-function must be sigmoid (identity), log or inverse-logistic, got 'tanh'"),
        UsageCase(
            arguments: ["metadata", "write", "m.tflite", "--output", "o", "--score-calibration", "c.txt"],
            message: "error: --score-calibration needs --calibration-function (sigmoid, log or inverse-logistic)"),
        UsageCase(
            arguments: ["metadata", "write", "m.tflite", "--output", "o", "--labels-locale", "es"],
            message: "error: --labels-locale expects CODE=FILE, such as es=labels_es.txt, got 'es'"),
        UsageCase(
            arguments: ["inspect", "--format", "csv", "m.tflite"], message: "error: --format must be table or json, got 'csv'"),
        UsageCase(
            arguments: ["inspect", "--format", "xml", "m.tflite"], message: "error: --format must be table or json, got 'xml'"),
    ]

    @Test("usage errors", arguments: usageCases)
    func usageError(usage: UsageCase) async throws {
        let run = try await VisionTasksTool.run(usage.arguments)
        #expect(run.status == 2 && run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics.first == usage.message, "\(run)")
    }

    @Test func writeErrorsNameTheFile() async throws {
        let run = try await VisionTasksTool.run([
            "metadata", "write", "\(Self.models)/mobilenet_v1_0.25_224_1_default_1.tflite", "--output", "/nonexistent/o.tflite",
            "--name", "x",
        ])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics.first?.hasPrefix(
                "error: INVALID_ARGUMENT: \(Self.models)/mobilenet_v1_0.25_224_1_default_1.tflite: Input tensor 'input' is FLOAT32"
            ) == true,
            "\(run)")
        let missing = try await VisionTasksTool.run(["inspect", "/nonexistent/m.tflite"])
        #expect(
            missing.status == 1
                && missing.diagnostics.first?.contains(
                    "NOT_FOUND: Unable to open file at /nonexistent/m.tflite: the model file was not found") == true,
            "\(missing)")
    }
}

/// The reference check (`Tests/Reference/check_metadata_tools.py`): tflite-support 0.4.4's
/// MetadataDisplayer and MediaPipe 1.2.3 themselves, in the virtual environment
/// `scripts/bootstrap --tests` makes (`scripts/python-env metadata`; the test downloads nothing).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct MetadataToolsReferenceTests {
    @Test func agreesWithTFLiteSupportAndMediaPipe() async throws {
        let python = try #require(ExternalProgram.find(["python3"]), "python3 is needed for the reference check")
        let tool = try #require(VisionTasksTool.executable, "the vision-tasks executable was not built")
        let script = TestData.packageRoot.appendingPathComponent("Tests/Reference/check_metadata_tools.py").path
        let testData = try #require(TestData.root).path
        let run = try await ExternalProgram.run(python, [script, tool.path, testData], safetyNet: 600)
        let lines = run.text.split(separator: "\n")
        #expect(run.status == 0, "\(run.text)\n\(run)")
        #expect(lines.last == "\(lines.filter { $0.hasPrefix("ok ") }.count) passed, 0 failed", "\(run.text)")
        #expect(lines.filter { $0.hasPrefix("ok ") }.count >= 50, "\(run.text)")
    }
}
