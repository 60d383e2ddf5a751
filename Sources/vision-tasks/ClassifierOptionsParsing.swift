import Foundation
import VisionTasks

/// The classifier options the classify, classify-video and live commands share.
enum ClassifierOptionsParsing {
    /// The option names that take a value.
    static let valueOptions: Set<String> = ["model", "max-results", "score-threshold", "allow", "deny", "locale", "threads"]

    /// The help lines for those options.
    static let help = """
      --model PATH             The .tflite model (required).
      --max-results N          Categories per head, best first; -1 for all (default 5).
      --score-threshold T      Drop categories scoring below T (default 0).
      --allow NAME             Keep only this category name; repeat for several.
      --deny NAME              Drop this category name; repeat for several.
      --locale CODE            Display-names locale (default en).
      --threads N              CPU threads for inference, 1...64 (default \(BaseOptions.defaultThreadCount)).
    """

    /// Options from the parsed arguments, in `mode`.
    /// - Throws: `UsageError` for a missing model or a malformed or out-of-range value.
    static func options(_ parsed: ParsedArguments, mode: RunningMode) throws(UsageError) -> ImageClassifierOptions {
        guard let model = parsed.value("model") else { throw UsageError("--model is required") }
        let options = ImageClassifierOptions()
        options.runningMode = mode
        options.baseOptions.modelAssetPath = model
        options.baseOptions.threadCount = try parsed.int("threads", default: BaseOptions.defaultThreadCount, in: 1...64)
        options.maxResults = try parsed.int("max-results", default: 5)
        guard options.maxResults != 0 else { throw UsageError("--max-results must not be 0 (-1 means all)") }
        options.scoreThreshold = try parsed.float("score-threshold", default: 0)
        options.categoryAllowlist = parsed.options["allow"] ?? []
        options.categoryDenylist = parsed.options["deny"] ?? []
        options.displayNamesLocale = parsed.value("locale")
        return options
    }
}
