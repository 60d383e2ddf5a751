import Foundation
import ImageLabeling
import ImageTasks
import LabelingTasks
import ModelCache
import ModelDownloads
import TasksCommon

/// `vision-tasks label`: labels image files and folders with ML Kit's image labeler, for an
/// AutoML Vision Edge export (`--manifest`), a custom model with metadata (`--model`) or a
/// downloaded remote model (`--remote`).
struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Label image files and folders with an AutoML export or a custom model (ML Kit).",
        usage: "vision-tasks label (--manifest MANIFEST | --model MODEL | --remote NAME) [options] IMAGE_OR_FOLDER...",
        discussion: """
            Labels JPEG, PNG and WebP images (folders are searched recursively) as ML Kit's image
            labeler does: labels with a confidence at or above the threshold, highest first.
            """,
        epilogue: """
            EXIT STATUS: 0 when every image was labeled, 1 when any failed or the model could not be
            loaded, 2 for a usage error (an unknown option, a malformed or out-of-range value, no image,
            a folder without images). With --files-from, images that fail leave the status 0 (each has
            its error line); it is 1 when the model cannot be loaded or the list cannot be read.
            """)

    static let manifest = Option<String?>(
        name: "manifest", valueName: "PATH",
        help: "An AutoML Vision Edge export's manifest.json (labels from its labels file, such as dict.txt).")
    static let model = Option<String?>(
        name: "model", valueName: "PATH", help: "A custom .tflite model (labels from its metadata).")
    static let remote = Option<String?>(
        name: "remote", valueName: "NAME",
        help: "A model downloaded with `vision-tasks models download NAME` (from the cache: see --cache); an error when "
            + "it is not downloaded.", default: nil
    ) { name throws(UsageError) in
        // A name no download can have is a usage error, as in the `models` commands.
        if let problem = ModelName.problem(name) { throw UsageError("--remote '\(TableText.escaped(name))': \(problem)") }
        return name
    }
    static let confidence = Option<Float?>(
        name: "confidence", valueName: "T",
        help:
            "The confidence threshold in [\(Int(ValueRanges.confidence.lowerBound)), \(Int(ValueRanges.confidence.upperBound))]. "
            + "Default: 0.5 for AutoML exports; for custom models the model's metadata threshold, else 0.",
        default: nil,
        transform: ValueParser.number("confidence") { threshold throws(UsageError) in
            guard ValueRanges.confidence.contains(threshold) else {
                throw UsageError("--confidence must be in [0, 1], got \(threshold)")
            }
        })
    static let maxResults = Option<Int>(
        name: "max-results", valueName: "N", help: "At most N labels per image.", default: 10,
        defaultDescription: "10",
        transform: ValueParser.integer("max-results", in: ValueRanges.labelCount))
    static let format = OutputFormat.option(
        allowing: OutputFormat.records,
        help: "table, json (one array), jsonl (one object per line) or csv (a record per image and label); each object is "
            + "{\"image\", \"labels\": [{\"text\", \"confidence\", \"index\"}]} or {\"image\", \"error\": {\"code\", \"message\"}}."
    )

    static let optionTable =
        [
            manifest.definition, model.definition, remote.definition, ModelCacheOption.cache.definition,
            confidence.definition, maxResults.definition,
            format.definition, ReportOption.report.definition, StandardOptions.verbose.definition,
        ] + BatchOptionGroup.optionTable

    /// Where the model and labels come from.
    enum Source {
        case manifest(String)
        case model(String)
        case remote(String)

        var isRemote: Bool {
            if case .remote = self { return true }
            return false
        }
    }

    let source: Source
    /// The model cache `--remote` reads (`--cache`); nil: the environment's.
    let cache: URL?
    let confidence: Float?
    let maxResults: Int
    let format: OutputFormat
    /// The HTML report's path (`--report`), if any.
    let report: String?
    let verbose: Bool
    let batch: BatchOptionGroup
    let images: [FileSystemPath]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let sources = [
            try parsed.value(Self.manifest).map(Source.manifest), try parsed.value(Self.model).map(Source.model),
            try parsed.value(Self.remote).map(Source.remote),
        ].compactMap { $0 }
        guard sources.count == 1, let source = sources.first else {
            throw UsageError(
                sources.isEmpty ? "--manifest, --model or --remote is required" : "give one of --manifest, --model and --remote")
        }
        self.source = source
        cache = try parsed.value(ModelCacheOption.cache).map { URL(fileURLWithPath: $0, isDirectory: true) }
        if cache != nil, !source.isRemote { throw UsageError("--cache goes with --remote") }
        confidence = try parsed.value(Self.confidence)
        maxResults = try parsed.value(Self.maxResults)
        report = try parsed.value(ReportOption.report)
        verbose = parsed.isSet(StandardOptions.verbose)
        images = parsed.positionals.map(\.path)
        batch = try BatchOptionGroup(parsed)
        format = try batch.format(
            parsed.value(Self.format), given: parsed.contains(Self.format.definition),
            imageArguments: images.count)
    }

    func run() throws(UsageError) -> Int32 {
        guard let source = try BatchRun.source(images: images, options: batch, format: format, output: LabelingOutput.self) else {
            return 1
        }
        var run = BatchRun(source: source, format: format, options: batch, verbose: verbose)
        if let path = self.report {
            guard
                let opened = ReportOption.open({ () throws(TasksError) in
                    try ImageReport(path: path, command: "label", imageCount: source.knownCount ?? 0, settings: reportSettings)
                })
            else { return 1 }
            run.report = opened
        }
        return run.run { _ throws(TasksError) in try LabelingTask(options: labelerOptions) }
    }

    private var labelerOptions: CommonImageLabelerOptions {
        let options: CommonImageLabelerOptions =
            switch source {
            case .manifest(let path): AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: path))
            case .model(let path): CustomImageLabelerOptions(localModel: LocalModel(path: path))
            case .remote(let name): Self.remoteOptions(name, cache: cache)
            }
        options.confidenceThreshold = confidence.map { NSNumber(value: $0) }
        options.maxResultCount = maxResults
        return options
    }

    /// AutoML options for an AutoML bundle, custom options for a single model; AutoML options
    /// (whose labeler then reports "not downloaded") when the model is not in the cache.
    private static func remoteOptions(_ name: String, cache: URL?) -> CommonImageLabelerOptions {
        if let cache { ModelManager.modelManager().cacheDirectory = cache }
        if ModelManager.modelManager().installed(named: name)?.kind == .tflite {
            return CustomImageLabelerOptions(remoteModel: CustomRemoteModel(remoteModelSource: HTTPModelSource(name: name)))
        }
        return AutoMLImageLabelerOptions(remoteModel: AutoMLImageLabelerRemoteModel(name: name))
    }
}
