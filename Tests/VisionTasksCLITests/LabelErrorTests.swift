import Foundation
import TestSupport
import Testing

/// `vision-tasks label` with an export or model it cannot use: status 1, nothing on stdout, one
/// message on stderr naming the file at fault; no image is looked at.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LabelManifestErrorTests {
    enum Culprit: Sendable { case manifest, labels }

    struct ManifestCase: Sendable, CustomTestStringConvertible {
        let id: String
        /// manifest.json's text; nil: there is none.
        let manifest: String?
        var labels = AutoMLExportFolder.flowers
        /// The file the message must name.
        let culprit: Culprit
        /// Further text the message must contain.
        let mentions: [String]
        /// Whether the model may have been compiled before the fault was found.
        var modelMayLoad = false
        var testDescription: String { id }
    }

    static let cases: [ManifestCase] = [
        ManifestCase(id: "missing manifest", manifest: nil, culprit: .manifest, mentions: ["NOT_FOUND"]),
        ManifestCase(
            id: "wrong modelType",
            manifest: #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "OBJECT_DETECTION"}"#,
            culprit: .manifest, mentions: ["OBJECT_DETECTION", "IMAGE_LABELING"]),
        ManifestCase(
            id: "modelFile leaves the folder",
            manifest: #"{"modelFile": "../../etc/passwd", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
            culprit: .manifest, mentions: ["../../etc/passwd", "modelFile"]),
        ManifestCase(
            id: "absolute labelsFile",
            manifest: #"{"modelFile": "model.tflite", "labelsFile": "/etc/passwd", "modelType": "IMAGE_LABELING"}"#,
            culprit: .manifest, mentions: ["/etc/passwd", "labelsFile"]),
        ManifestCase(id: "not JSON", manifest: "modelFile = model.tflite", culprit: .manifest, mentions: ["JSON"]),
        ManifestCase(
            id: "missing key", manifest: #"{"modelFile": "model.tflite", "modelType": "IMAGE_LABELING"}"#,
            culprit: .manifest, mentions: ["labelsFile"]),
        ManifestCase(
            id: "dict.txt with 4 lines", manifest: AutoMLExportFolder.standardManifest,
            labels: Array(AutoMLExportFolder.flowers.prefix(4)), culprit: .labels, mentions: ["4"], modelMayLoad: true),
        ManifestCase(
            id: "dict.txt with 6 lines", manifest: AutoMLExportFolder.standardManifest,
            labels: AutoMLExportFolder.flowers + ["lilies"], culprit: .labels, mentions: ["6"], modelMayLoad: true),
    ]

    @Test(arguments: cases)
    func unusableExportFailsNamingTheFileAtFault(_ item: ManifestCase) async throws {
        let export = try AutoMLExportFolder(manifest: item.manifest, labels: item.labels)
        for format in ["table", "json"] {
            let run = try await VisionTasksTool.run(
                VisionTasksTool.verbose([
                    "label", "--manifest", export.manifestPath,
                    "--format", format, Fixture.burger, Fixture.sparrowPNG,
                ]))
            #expect(run.status == 1, "\(run)")
            #expect(run.stdout.isEmpty, "no image is labeled:\n\(run)")
            try #require(run.diagnostics.count == 1, "\(run)")
            let message = run.diagnostics[0]
            #expect(message.hasPrefix("error: "), "\(run)")
            let culprit = item.culprit == .manifest ? export.manifestPath : export.labelsPath
            #expect(message.contains(culprit), "the message names \(culprit):\n\(run)")
            for mention in item.mentions {
                #expect(message.contains(mention), "mentions \(mention):\n\(run)")
            }
            if !item.modelMayLoad {
                #expect(!run.compiledModel, "a bad manifest is found before the model is loaded:\n\(run)")
            }
        }
    }

    /// A manifest path not in canonical form (`FOLDER/./manifest.json`): the message names it as given.
    @Test func manifestIsNamedAsGiven() async throws {
        let export = try AutoMLExportFolder(manifest: nil)
        let given = export.folder.path + "/./manifest.json"
        let run = try await VisionTasksTool.run(["label", "--manifest", given, Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics.count == 1 && run.diagnostics[0].contains(given), "\(run)")
    }

    /// `--model` with a two-head model: refused (ML Kit reads one head), naming the file and the heads.
    @Test func twoHeadModelIsRefused() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("two_heads.tflite").path
        try Data(ReshapeModel.bytes(outputShapes: [[1, 48], [1, 48]])).write(to: URL(fileURLWithPath: path))
        let run = try await VisionTasksTool.run(["label", "--model", path, Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(
            run.diagnostics == [
                "error: INVALID_ARGUMENT: \(path): ML Kit's image labeler uses one output (head), but this model has 2 (output 0, "
                    + "output 1); use VisionTasks' ImageClassifier, which returns every head."
            ], "\(run)")
    }

    /// `--model` with a file that is not a model: status 1, the path named.
    @Test(arguments: ["missing.tflite", "dict.txt"])
    func unusableCustomModelFailsNamingIt(name: String) async throws {
        let export = try AutoMLExportFolder()
        let path = export.folder.appendingPathComponent(name).path
        let run = try await VisionTasksTool.run(["label", "--model", path, "--format", "json", Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(
            run.diagnostics.count == 1 && run.diagnostics[0].hasPrefix("error: ") && run.diagnostics[0].contains(path),
            "\(run)")
    }
}

/// Mistakes in how `label` is called: status 2, nothing on stdout, the reason and the hint on
/// stderr, no model loaded.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LabelUsageErrorTests {
    struct UsageCase: Sendable, CustomTestStringConvertible {
        let id: String
        /// `MANIFEST`, `MODEL`, `IMAGE` and `EMPTY_FOLDER` stand for the export's manifest, the quantized
        /// model, burger.jpg and a folder holding no photo.
        let arguments: [String]
        let message: String
        var testDescription: String { id }
    }

    static let cases: [UsageCase] = [
        UsageCase(
            id: "no model option", arguments: ["IMAGE"], message: "error: --manifest, --model or --remote is required"),
        UsageCase(
            id: "--remote with a path", arguments: ["--remote", "../x", "IMAGE"],
            message:
                "error: --remote '../x': a model name uses only letters, digits, '.', '_' and '-', and does not start with '.'."),
        UsageCase(
            id: "both --manifest and --model", arguments: ["--manifest", "MANIFEST", "--model", "MODEL", "IMAGE"],
            message: "error: give one of --manifest, --model and --remote"),
        UsageCase(
            id: "both --remote and --model", arguments: ["--remote", "flowers", "--model", "MODEL", "IMAGE"],
            message: "error: give one of --manifest, --model and --remote"),
        UsageCase(
            id: "--cache without --remote", arguments: ["--model", "MODEL", "--cache", "DIR", "IMAGE"],
            message: "error: --cache goes with --remote"),
        UsageCase(
            id: "--confidence abc", arguments: ["--manifest", "MANIFEST", "--confidence", "abc", "IMAGE"],
            message: "error: --confidence expects a number, got 'abc'"),
        UsageCase(
            id: "--confidence nan", arguments: ["--model", "MODEL", "--confidence", "nan", "IMAGE"],
            message: "error: --confidence expects a number, got 'nan'"),
        UsageCase(id: "no images with --manifest", arguments: ["--manifest", "MANIFEST"], message: "error: no image given"),
        UsageCase(
            id: "no images with --model", arguments: ["--model", "MODEL", "--format", "json"], message: "error: no image given"),
        UsageCase(
            id: "--max-results not a number", arguments: ["--manifest", "MANIFEST", "--max-results", "all", "IMAGE"],
            message: "error: --max-results expects an integer, got 'all'"),
        UsageCase(
            id: "bad --format", arguments: ["--manifest", "MANIFEST", "--format", "xml", "IMAGE"],
            message: "error: --format must be one of table, json, jsonl, csv, got 'xml'"),
        UsageCase(
            id: "classify's option", arguments: ["--manifest", "MANIFEST", "--score-threshold", "0.5", "IMAGE"],
            message: "error: unknown option --score-threshold"),
        UsageCase(
            id: "--manifest without its value", arguments: ["IMAGE", "--manifest"],
            message: "error: option --manifest needs a value"),
        // Out-of-range values: the labeler would refuse them (ML Kit silently uses its defaults).
        UsageCase(
            id: "--confidence 1.5", arguments: ["--manifest", "MANIFEST", "--confidence", "1.5", "IMAGE"],
            message: "error: --confidence must be in [0, 1], got 1.5"),
        UsageCase(
            id: "--confidence -0.1", arguments: ["--model", "MODEL", "--confidence", "-0.1", "IMAGE"],
            message: "error: --confidence must be in [0, 1], got -0.1"),
        UsageCase(
            id: "--max-results 0", arguments: ["--manifest", "MANIFEST", "--max-results", "0", "IMAGE"],
            message: "error: --max-results must be at least 1, got 0"),
        UsageCase(
            id: "--max-results -1", arguments: ["--model", "MODEL", "--max-results", "-1", "IMAGE"],
            message: "error: --max-results must be at least 1, got -1"),
        UsageCase(
            id: "a folder without images", arguments: ["--manifest", "MANIFEST", "EMPTY_FOLDER"],
            message: "error: no .jpg, .jpeg, .png or .webp file in the folder EMPTY_FOLDER"),
    ]

    @Test(arguments: cases)
    func usageErrorExitsWith2(_ usage: UsageCase) async throws {
        let export = try AutoMLExportFolder()
        let emptyFolder = export.folder.appendingPathComponent("no photos")
        try FileManager.default.createDirectory(at: emptyFolder, withIntermediateDirectories: true)
        try Data("not a photo\n".utf8).write(to: emptyFolder.appendingPathComponent("notes.txt"))
        let substitutes = [
            "MANIFEST": export.manifestPath, "MODEL": Fixture.quantModel, "IMAGE": Fixture.burger,
            "EMPTY_FOLDER": emptyFolder.path,
        ]
        let run = try await VisionTasksTool.run(
            VisionTasksTool.verbose(["label"] + usage.arguments.map { substitutes[$0] ?? $0 }))
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(
            run.diagnostics == [
                usage.message.replacingOccurrences(of: "EMPTY_FOLDER", with: emptyFolder.path),
                "Run `vision-tasks label --help` for usage.",
            ], "\(run)")
        #expect(!run.compiledModel, "usage is checked before the model is loaded:\n\(run)")
    }
}

/// `label --help`: on stdout, status 0, every option listed. Needs no test data.
struct LabelHelpTests {
    static let options = [
        "--manifest", "--model", "--remote", "--cache", "--confidence", "--max-results", "--format", "--report", "--verbose",
        "--jobs",
        "--files-from", "-0", "--null", "--shard", "--resume", "--output", "--no-progress", "-h", "--help",
    ]

    /// The option names in the OPTIONS section: each line's leading `-x`/`--name` tokens.
    private func listedOptions(_ help: [String]) -> [String] {
        guard let start = help.firstIndex(of: "OPTIONS:") else { return [] }
        return help[(start + 1)...].prefix { !$0.isEmpty }.flatMap { line -> [String] in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-") else { return [] }
            return trimmed.split(separator: " ").prefix { $0.hasPrefix("-") }.map { String($0.trimmingCharacters(in: [","])) }
        }
    }

    @Test(arguments: [
        ["label", "--help"], ["label", "-h"], ["label", "--manifest", "nowhere.json", "--help"],
        ["label", "--model", "a.tflite", "--manifest", "b.json", "-h"],
    ])
    func helpListsEveryOption(arguments: [String]) async throws {
        let run = try await VisionTasksTool.run(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        let lines = run.stdoutLines
        #expect(
            lines.first
                == "USAGE: vision-tasks label (--manifest MANIFEST | --model MODEL | --remote NAME) [options] IMAGE_OR_FOLDER...")
        #expect(listedOptions(lines) == Self.options, "\(run)")
        #expect(run.stdout.contains("Default: 0.5 for AutoML"), "\(run)")
        #expect(run.stdout.contains("EXIT STATUS: 0 when every image was labeled, 1 when any failed"), "\(run)")
        #expect(run.stdout.contains("2 for a usage error"), "\(run)")
    }

    /// Every option the help lists is one the parser knows (given a value, it is not "unknown").
    @Test(arguments: options.filter { $0.hasPrefix("--") && $0 != "--help" })
    func listedOptionIsAccepted(option: String) async throws {
        let run = try await VisionTasksTool.run(["label", "\(option)=1"])
        #expect(run.status == 2, "no image given: \(run)")
        #expect(!run.stderr.contains("unknown option"), "\(run)")
    }
}
