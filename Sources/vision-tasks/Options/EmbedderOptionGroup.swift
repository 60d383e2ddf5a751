import VisionTasks

/// The embedder options embed and similar share (MediaPipe's `ImageEmbedderOptions`).
struct EmbedderOptionGroup: ParsableArguments {
    static let l2Normalize = Flag(
        name: "l2-normalize", help: "Divide each embedding by its L2 norm (MediaPipe's l2_normalize).")
    static let quantize = Flag(
        name: "quantize",
        help: "Scalar-quantize each value to an int8: round(x * 128), clamped to the int8 range (MediaPipe's quantize; "
            + "meant for unit-norm embeddings: give --l2-normalize too).")

    static let optionTable = [
        ClassifierOptionGroup.model.definition, l2Normalize.definition, quantize.definition,
        ClassifierOptionGroup.threads.definition,
    ]
    /// The options of a command that compares float embeddings (similar): no L2 normalization
    /// or quantization (cosine similarity needs neither).
    static let modelOptionTable = [ClassifierOptionGroup.model.definition, ClassifierOptionGroup.threads.definition]

    let model: String
    let l2Normalize: Bool
    let quantize: Bool
    let threads: Int
    /// Whether `--threads` was given (else it is 1 with several workers).
    let threadsGiven: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        try self.init(parsed, postprocessing: true)
    }

    /// - Parameter postprocessing: whether the command has --l2-normalize and --quantize
    ///   (`optionTable`) or not (`modelOptionTable`).
    init(_ parsed: ParsedArguments, postprocessing: Bool) throws(UsageError) {
        model = try parsed.required(ClassifierOptionGroup.model)
        l2Normalize = postprocessing && parsed.isSet(Self.l2Normalize)
        quantize = postprocessing && parsed.isSet(Self.quantize)
        threads = try parsed.value(ClassifierOptionGroup.threads)
        threadsGiven = parsed.contains(ClassifierOptionGroup.threads.definition)
    }

    /// The embedder options for one of `workers` workers (1 inference thread each when there are
    /// several, unless `--threads` was given).
    func options(workers: Int) -> ImageEmbedderOptions {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = model
        options.baseOptions.threadCount = workers > 1 && !threadsGiven ? 1 : threads
        options.l2Normalize = l2Normalize
        options.quantize = quantize
        return options
    }
}
