import Foundation
import ImageLabeling

/// `vision-tasks label`: labels image files and folders with ML Kit's image labeler, for an
/// AutoML Vision Edge export (`--manifest`) or a custom model with metadata (`--model`).
enum LabelCommand {
    static let help = """
    USAGE: vision-tasks label (--manifest MANIFEST | --model MODEL) [options] IMAGE_OR_FOLDER...

    Labels JPEG, PNG and WebP images (folders are searched recursively) as ML Kit's image
    labeler does: labels with a confidence at or above the threshold, highest first.

    OPTIONS:
      --manifest PATH          An AutoML Vision Edge export's manifest.json (labels from its
                               labels file, such as dict.txt).
      --model PATH             A custom .tflite model (labels from its metadata).
      --confidence T           The confidence threshold in [0, 1]. Default: 0.5 for AutoML
                               exports; for custom models the model's metadata threshold, else 0.
      --max-results N          At most N labels per image (default 10).
      --format FORMAT          table (default), json (one array) or jsonl (one object per line);
                               each object is {"image", "labels": [{"text", "confidence", "index"}]}
                               or {"image", "error": {"code", "message"}}.
      -h, --help               Show this help.

    EXIT STATUS: 0 when every image was labeled, 1 when any failed or the model could not be
    loaded, 2 for a usage error (an unknown option, a malformed or out-of-range value, no image,
    a folder without images).
    """

    /// Runs the command; returns the exit status.
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try ParsedArguments(arguments, valueOptions: ["manifest", "model", "confidence", "max-results", "format"],
                                         flags: ["help", "h"])
        if parsed.flags.contains("help") || parsed.flags.contains("h") {
            print(help)
            return 0
        }
        let format = try OutputFormat(parsed)
        let options = try labelerOptions(parsed)
        guard !parsed.positionals.isEmpty else { throw UsageError("no image given") }
        let paths = try ImageFiles.expand(parsed.positionals)
        let labeler: ImageLabeler
        do {
            labeler = try ImageLabeler(options: options)
        } catch {
            reportError(error)
            return 1
        }
        return OutcomePrinter.run(paths, format: format) { path in
            do {
                return .labels(try labeler.results(in: VisionImage(contentsOfFile: path)))
            } catch {
                return .error(error as? TasksError ?? TasksError(.unknownError, "\(path): \(error)"))
            }
        }
    }

    private static func labelerOptions(_ parsed: ParsedArguments) throws(UsageError) -> CommonImageLabelerOptions {
        let options: CommonImageLabelerOptions
        switch (parsed.value("manifest"), parsed.value("model")) {
        case (let manifest?, nil): options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: manifest))
        case (nil, let model?): options = CustomImageLabelerOptions(localModel: LocalModel(path: model))
        case (nil, nil): throw UsageError("--manifest or --model is required")
        case (_?, _?): throw UsageError("give --manifest or --model, not both")
        }
        if parsed.value("confidence") != nil {
            let threshold = try parsed.float("confidence", default: 0)
            guard (0...1).contains(threshold) else { throw UsageError("--confidence must be in [0, 1], got \(threshold)") }
            options.confidenceThreshold = NSNumber(value: threshold)
        }
        options.maxResultCount = try parsed.int("max-results", default: 10, in: 1...Int.max)
        return options
    }
}
