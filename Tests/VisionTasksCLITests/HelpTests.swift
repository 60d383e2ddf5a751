import Foundation
import TestSupport
import Testing

/// `--help` texts: printed on stdout with status 0, listing every command and option.
/// These need no test data.
struct HelpTests {
    /// The top-level usage, in full: every command.
    static let usage = """
        USAGE: vision-tasks COMMAND [options]

        COMMANDS:
          classify        Classify image files and folders with a .tflite model (MediaPipe ImageClassifier).
          label           Label image files and folders with an AutoML export or a custom model (ML Kit).
          embed           Embed image files and folders with a .tflite model (MediaPipe ImageEmbedder).
          similar         Rank photos by similarity to query photos (MediaPipe ImageEmbedder, cosine similarity).
          train           Train a classifier on your photos (one folder per class) over a frozen base model; export it.
          evaluate        Measure a classifier on labelled photos: accuracy, per-class precision, recall, F1, confusion matrix.
          classify-video  Classify the frames of a video file (MediaPipe's video running mode).
          live            Classify a camera, stream or pipe as frames arrive (live-stream running mode).
          benchmark       Time model creation, decoding and classification; check memory across cycles.
          models          Publish (index), download, list, locate and delete remote models.
          inspect         Show a model's tensors and metadata, and whether MediaPipe and this tool accept it.
          metadata        Write TFLite Model Metadata (labels, normalization, ...) into a model: metadata write.
          serve           Serve models over HTTP: Open Inference Protocol v2, classify and embed routes, a web page.

        Run `vision-tasks COMMAND --help` for a command's options, `vision-tasks --version` for the
        tool's and LiteRT's versions.

        """

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelp(arguments: [String]) async throws {
        let run = try await VisionTasksTool.run(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == Self.usage, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
    }

    /// `models --help` names the cache's whole fallback chain, in the order `DownloadSettings` follows it.
    @Test func modelsHelpNamesEveryCacheFallback() async throws {
        let run = try await VisionTasksTool.run(["models", "--help"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        let passage = """
            Downloads go to the cache (--cache, else VISION_TASKS_MODEL_CACHE, else
            $XDG_CACHE_HOME/swift-vision-tasks/models, else $HOME/.cache/swift-vision-tasks/models)
            from --source, else VISION_TASKS_MODEL_SOURCE.
            """
        #expect(run.stdout.contains(passage), "\(run)")
    }

    /// The option names `classify --help` lists, in order: a snapshot of what the command accepts.
    static let classifyOptions = [
        "--model", "--max-results", "--score-threshold", "--allow", "--deny", "--locale", "--threads", "--roi",
        "--rotation", "--format", "--report", "--verbose", "--decode", "--jobs", "--files-from", "-0", "--null", "--shard",
        "--resume", "--output", "--no-progress", "-h", "--help",
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

    @Test(arguments: [["classify", "--help"], ["classify", "-h"], ["classify", "--model", "x.tflite", "--help"]])
    func classifyHelpListsEveryOption(arguments: [String]) async throws {
        let run = try await VisionTasksTool.run(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        let lines = run.stdoutLines
        #expect(lines.first == "USAGE: vision-tasks classify --model MODEL [options] IMAGE_OR_FOLDER...")
        #expect(listedOptions(lines) == Self.classifyOptions, "\(run)")
        #expect(run.stdout.contains("EXIT STATUS: 0 when every image was classified, 1 when any failed"), "\(run)")
        #expect(run.stdout.contains("2 for a usage error"), "\(run)")
    }

    /// Every option the help lists is one the parser knows (given a value, it is not "unknown").
    @Test(arguments: classifyOptions.filter { $0.hasPrefix("--") && $0 != "--help" })
    func listedOptionIsAccepted(option: String) async throws {
        let run = try await VisionTasksTool.run(["classify", "\(option)=1"])
        #expect(run.status != 0, "no image given: \(run)")
        #expect(!run.stderr.contains("unknown option"), "\(run)")
    }

    /// The option names `embed --help` and `similar --help` list, in order.
    static let embeddingCommandOptions = [
        "embed": [
            "--model", "--l2-normalize", "--quantize", "--threads", "--roi", "--rotation", "--format", "--verbose", "--decode",
            "--jobs", "--files-from", "-0", "--null", "--shard", "--resume", "--output", "--no-progress", "-h", "--help",
        ],
        "similar": [
            "--model", "--query", "--top", "--embeddings", "--threads", "--roi", "--rotation", "--format", "--verbose",
            "--decode", "--jobs", "-h", "--help",
        ],
    ]

    @Test(arguments: ["embed", "similar"])
    func embeddingCommandHelpListsEveryOption(command: String) async throws {
        let run = try await VisionTasksTool.run([command, "--help"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(listedOptions(run.stdoutLines) == Self.embeddingCommandOptions[command], "\(run)")
        for option in Self.embeddingCommandOptions[command, default: []] where option.hasPrefix("--") && option != "--help" {
            let given = try await VisionTasksTool.run([command, "\(option)=1"])
            #expect(given.status != 0 && !given.stderr.contains("unknown option"), "\(given)")
        }
    }
}
