import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// `vision-tasks similar`: ranks photos by how similar their embeddings are to each query's.
struct SimilarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar",
        abstract: "Rank photos by similarity to query photos (MediaPipe ImageEmbedder, cosine similarity).",
        usage: "vision-tasks similar --model MODEL (--query PHOTO)... [options] IMAGE_OR_FOLDER...",
        discussion: """
            Embeds each query and every photo of the arguments (folders are searched recursively)
            with the model, as `embed` does without --quantize, and lists for each query the photos
            most similar to it by the cosine similarity of their embeddings (MediaPipe's
            ImageEmbedder.cosineSimilarity, first head), most similar first: near-duplicates, then
            crops and edits, then photos of the same kind. Each file is listed once, and a query is
            never its own match (the same file under any name, links included). --embeddings
            reuses what `vision-tasks embed --format jsonl > FILE` printed for the same model
            (matched by the image path as printed), so a folder is embedded once for many
            queries; the model is still loaded, and a file whose embeddings another model (by
            content), output tensor or option made is refused, naming both.
            """,
        epilogue: """
            table: per query its path, then rank, similarity and path. json: one array of {"query",
            "matches": [{"image", "similarity"}]} (or {"query", "error"}); jsonl: one such object per line.
            A photo that cannot be embedded is reported on stderr and left out; a query that cannot
            has its error as its result.
            EXIT STATUS: 0 when every query and photo was embedded, 1 when any failed or the model could
            not be loaded, 2 for a usage error.
            """)

    static let query = RepeatedOption(
        name: "query", valueName: "PHOTO", help: "A photo to find similar photos to; repeat for several.")
    static let top = Option<Int?>(
        name: "top", valueName: "K", help: "List the K most similar photos per query; all by default.", default: nil,
        transform: ValueParser.integer("top", in: 1...Int(Int32.max)))
    static let embeddings = Option<String?>(
        name: "embeddings", valueName: "FILE",
        help: "Reuse the embeddings in FILE (`embed --format jsonl` or json output of the same model, without --quantize).")
    static let format = OutputFormat.option(
        allowing: [.table, .json, .jsonl], help: "table, json (one array of queries) or jsonl (one object per query).")

    static let optionTable =
        [
            ClassifierOptionGroup.model.definition, query.definition, top.definition, embeddings.definition,
            ClassifierOptionGroup.threads.definition,
        ] + ImageProcessingOptionGroup.optionTable
        + [
            format.definition, StandardOptions.verbose.definition, DecodingMode.option.definition,
            BatchOptionGroup.jobs.definition,
        ]

    let embedder: EmbedderOptionGroup
    let queries: [FileSystemPath]
    let top: Int?
    let cacheFile: String?
    let imageProcessing: ImageProcessingOptionGroup
    let decoding: DecodingMode
    let format: OutputFormat
    let verbose: Bool
    let jobs: Int
    /// The photos to rank, byte for byte.
    let images: [FileSystemPath]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        embedder = try EmbedderOptionGroup(parsed, postprocessing: false)
        queries = parsed.values(Self.query).map { FileSystemPath($0) }
        guard !queries.isEmpty else { throw UsageError("give at least one --query PHOTO") }
        images = parsed.positionals.map(\.path)
        guard !images.isEmpty else { throw UsageError("no image given to rank") }
        top = try parsed.value(Self.top)
        cacheFile = try parsed.value(Self.embeddings)
        imageProcessing = try ImageProcessingOptionGroup(parsed)
        decoding = try parsed.value(DecodingMode.option)
        if cacheFile != nil, imageProcessing.regionOfInterest != .zero || imageProcessing.orientation != nil || decoding == .fast
        {
            throw UsageError(
                "--embeddings cannot be combined with --roi, --rotation or --decode fast: the file does not say how its "
                    + "embeddings were made (give those options to `vision-tasks embed` when making it)")
        }
        format = try parsed.value(Self.format)
        verbose = parsed.isSet(StandardOptions.verbose)
        jobs = try parsed.value(BatchOptionGroup.jobs)
    }

    func run() throws(UsageError) -> Int32 {
        let candidates: [ImageInput]
        var skippedFolders: [FileSystemPath] = []
        do throws(TasksError) {
            candidates = try ImageFileList.expand(images, skippedFolders: &skippedFolders)
            SkippedFolders.warn(skippedFolders)
        } catch {
            if error.condition == .emptyFolder, let folder = error.subject?.name {
                throw UsageError("no .jpg, .jpeg, .png or .webp file in the folder \(TableText.escaped(folder))")
            }
            StandardStreams.reportError(error)
            return 1
        }
        let inputs = queries.map(ImageInput.file) + candidates
        // The model is loaded even when the file holds every embedding: its size checks the file.
        guard let tasks = loadTasks(for: inputs), let first = tasks.first else { return 1 }
        var search = SimilaritySearch(dimension: first.embedder.embeddingDimensions.first ?? 0)
        if let cacheFile {
            do throws(TasksError) {
                let source = try EmbeddingSource.sources(of: embedder.options(workers: 1)).first
                guard let source else { throw .invalidArgument("The model has no output.", subject: .file(embedder.model)) }
                try search.keep(cached: try EmbeddingCache.read(cacheFile, madeBy: source), from: cacheFile)
            } catch {
                StandardStreams.reportError(error)
                return 1
            }
        }
        search.embed(search.missing(inputs), tasks: tasks)
        var status: Int32 = reportFailures(of: inputs, in: search) ? 1 : 0
        var printer = SimilarityPrinter(format: format)
        for query in queries where !printer.add(query: query, result: search.matches(for: query, among: candidates, top: top)) {
            status = 1
        }
        printer.finish()
        return printer.printingFailed ? 1 : status
    }

    /// One embedding task per worker for `inputs`; nil after reporting a model that cannot be loaded.
    private func loadTasks(for inputs: [ImageInput]) -> [EmbeddingTask]? {
        let workers = BatchRunner.workerCount(jobs: jobs, source: ImageSource(origin: .arguments(inputs)))
        let processing = imageProcessing.processing(decoding: decoding)
        return ModelLoading.load(verbose: verbose) { () throws(TasksError) in
            try (0..<workers).map { _ throws(TasksError) in
                try EmbeddingTask(options: embedder.options(workers: workers), processing: processing)
            }
        }
    }

    /// Reports on stderr, once each and in order, the photos that could not be embedded or
    /// compared (a query's error is its record instead).
    /// - Returns: whether any input failed, queries included.
    private func reportFailures(of inputs: [ImageInput], in search: SimilaritySearch) -> Bool {
        let queryPaths = Set(queries.map(\.description))
        var reported: Set<String> = []
        for input in inputs {
            let path = input.path.description
            guard let error = search.failures[path], !queryPaths.contains(path), reported.insert(path).inserted else { continue }
            StandardStreams.warn("\(TableText.escaped(path)): error: \(ErrorText.describe(error, imageFile: path))")
        }
        return inputs.contains { search.failures[$0.path.description] != nil }
    }
}
