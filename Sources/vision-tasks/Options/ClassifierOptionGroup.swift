import TaskRuntime
import TasksCommon
import VisionTasks

/// The classifier options classify, classify-video and live share (MediaPipe's
/// `ImageClassifierOptions`); benchmark reuses `model` and `threads`.
struct ClassifierOptionGroup: ParsableArguments {
    static let model = Option<String?>(name: "model", valueName: "PATH", help: "The .tflite model (required).")
    static let maxResults = Option<Int>(
        name: "max-results", valueName: "N", help: "Categories per head, best first; -1 for all.", default: 5,
        defaultDescription: "5"
    ) { text throws(UsageError) in
        let count = try ValueParser.integer("max-results")(text)
        // The core's rule and message, as the library and the server give them.
        do throws(TasksError) {
            try ClassificationPostprocessor.checkOptions(maxResults: count, allowlist: [], denylist: [])
        } catch {
            throw UsageError("--max-results: \(error.message)")
        }
        return count
    }
    static let scoreThreshold = Option<Float>(
        name: "score-threshold", valueName: "T", help: "Drop categories scoring below T.",
        default: 0, defaultDescription: "0", transform: ValueParser.number("score-threshold"))
    static let allow = RepeatedOption(name: "allow", valueName: "NAME", help: "Keep only this category name; repeat for several.")
    static let deny = RepeatedOption(name: "deny", valueName: "NAME", help: "Drop this category name; repeat for several.")
    static let locale = Option<String>(
        name: "locale", valueName: "CODE", help: "Display-names locale.", default: "en", defaultDescription: "en"
    ) { $0 }
    static let threads = Option<Int>(
        name: "threads", valueName: "N",
        help: "CPU threads for inference, \(ValueRanges.threads.lowerBound)...\(ValueRanges.threads.upperBound).",
        default: BaseOptions.defaultThreadCount, defaultDescription: String(BaseOptions.defaultThreadCount),
        transform: ValueParser.integer("threads", in: ValueRanges.threads))

    static let optionTable = [
        model.definition, maxResults.definition, scoreThreshold.definition, allow.definition,
        deny.definition, locale.definition, threads.definition,
    ]

    let model: String
    let maxResults: Int
    let scoreThreshold: Float
    let allowlist: [String]
    let denylist: [String]
    let locale: String
    let threads: Int

    init(_ parsed: ParsedArguments) throws(UsageError) {
        model = try parsed.required(Self.model)
        threads = try parsed.value(Self.threads)
        maxResults = try parsed.value(Self.maxResults)
        scoreThreshold = try parsed.value(Self.scoreThreshold)
        allowlist = parsed.values(Self.allow)
        denylist = parsed.values(Self.deny)
        guard allowlist.isEmpty || denylist.isEmpty else { throw UsageError("give --allow or --deny, not both") }
        locale = try parsed.value(Self.locale)
    }

    /// The classifier options in `mode`.
    func options(mode: RunningMode) -> ImageClassifierOptions {
        let options = ImageClassifierOptions()
        options.runningMode = mode
        options.baseOptions.modelAssetPath = model
        options.baseOptions.threadCount = threads
        options.maxResults = maxResults
        options.scoreThreshold = scoreThreshold
        options.categoryAllowlist = allowlist
        options.categoryDenylist = denylist
        options.displayNamesLocale = locale
        return options
    }
}
