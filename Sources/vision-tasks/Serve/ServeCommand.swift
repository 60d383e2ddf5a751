import Foundation
import ImageTasks
import ModelCache
import ModelDownloads
import ModelServer
import ServedModels
import TasksCommon
import VisionTasks

/// `vision-tasks serve`: serves models over HTTP (KServe Open Inference Protocol v2, a v1
/// classify route and a web page) until SIGTERM or SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve models over HTTP: Open Inference Protocol v2, classify and embed routes, a web page.",
        usage:
            "vision-tasks serve (--model NAME=PATH | --label NAME=MANIFEST | --remote NAME)... [--task auto|classify|embed] [options]",
        discussion: """
            Loads every model (--workers instances each) and listens on --host:--port, printing
            "listening on http://HOST:PORT" on stderr, then one JSON access-log line per request.
            A classifier's or labeler's infer output is "classifications" (BYTES, each image's JSON
            record; Triton's classification extension); an embedder's is "embedding", FP32 (INT8
            with --quantize) of shape [B, D]. GET /v2/models/NAME says which ("task": classify or embed).
            Routes: GET / (web page), GET /v2, /v2/health/live, /v2/health/ready, /v2/models/NAME,
            /v2/models/NAME/ready, POST /v2/models/NAME/infer (each also under
            /v2/models/NAME/versions/V), POST /v1/models/NAME/classify (or /embed for an embedder:
            `embed --format json`'s records), POST /v1/models/NAME/classify-video[?job=JOB] and
            GET /v1/videos/JOB (its progress), GET /v1/models, GET /v1/models/NAME (the model's
            details), GET /metrics. SIGTERM or SIGINT stops accepting connections, finishes
            the requests received and exits 0; with --drain-seconds, SIGTERM first fails
            /v2/health/ready for that long while still serving. --remote NAME serves the version of NAME that
            `models download` installed in the cache when the server started, and GET /v2/models/NAME
            reports it ("versions", and "model_version" in infer responses); to serve a newer download,
            restart the server (behind a load balancer: SIGTERM drains it, one replica at a time).
            """,
        epilogue: """
            EXIT STATUS: 0 after SIGTERM or SIGINT, 1 when a model cannot be loaded or the address
            cannot be bound, 2 for a usage error (including a non-loopback --host without
            --token-file or --insecure).
            """)

    static let model = RepeatedOption(
        name: "model", valueName: "NAME=PATH",
        help:
            "Serve a .tflite model as NAME: a classifier (MediaPipe ImageClassifier) or an embedder (ImageEmbedder; see --task).")
    static let task = Option<ServedModelSpec.Task>(
        name: "task", valueName: "auto|classify|embed",
        help: "What the --model models do: classify, embed, or auto (embed when the model's metadata is named ImageEmbedder, "
            + "as MediaPipe's embedders are; classify otherwise).", default: .auto, defaultDescription: "auto"
    ) { text throws(UsageError) in
        guard let kind = ServedModelSpec.Task(rawValue: text) else {
            throw UsageError("--task must be auto, classify or embed, got '\(text)'")
        }
        return kind
    }
    static let label = RepeatedOption(
        name: "label", valueName: "NAME=MANIFEST", help: "Serve an AutoML Vision Edge export as NAME (ML Kit image labeler).")
    static let remote = RepeatedOption(
        name: "remote", valueName: "NAME",
        help: "Serve the installed version of a model downloaded with `models download NAME` (--cache), as NAME.")
    static let host = Option<String>(
        name: "host", valueName: "ADDRESS", help: "The address to bind.", default: "127.0.0.1", defaultDescription: "127.0.0.1"
    ) { $0 }
    static let port = Option<Int>(
        name: "port", valueName: "N", help: "The port; 0 picks a free one.", default: 8080, defaultDescription: "8080",
        transform: ValueParser.integer("port", in: 0...65535))
    static let workers = Option<Int>(
        name: "workers", valueName: "N", help: "Classifiers per model (requests classified at once per model).",
        default: 2, defaultDescription: "2", transform: ValueParser.integer("workers", in: 1...64))
    static let threads = Option<Int>(
        name: "threads", valueName: "N", help: "CPU threads per classifier.", default: 1, defaultDescription: "1",
        transform: ValueParser.integer("threads", in: ValueRanges.threads))
    static let locale = Option<String>(
        name: "locale", valueName: "CODE", help: "Display-names locale of the classifiers.", default: "en",
        defaultDescription: "en"
    ) { $0 }
    static let tokenFile = Option<String?>(
        name: "token-file", valueName: "PATH",
        help: "Require `Authorization: Bearer TOKEN` (the file's first line) on every route but / and the health probes.")
    static let insecure = Flag(name: "insecure", help: "Allow a non-loopback --host without --token-file.")
    static let maxBody = Option<Int>(
        name: "max-body-bytes", valueName: "N", help: "Request body limit (413 above).", default: ServerLimits().maxBodyBytes,
        defaultDescription: "33554432 (32 MiB)", transform: ValueParser.integer("max-body-bytes", in: 1...Int(Int32.max)))
    static let maxImages = Option<Int>(
        name: "max-images", valueName: "N", help: "Images per request at most (400 above).", default: ServerLimits().maxImages,
        defaultDescription: "64", transform: ValueParser.integer("max-images", in: 1...100_000))
    static let maxRequests = Option<Int>(
        name: "max-requests", valueName: "N",
        help: "Inference requests in progress at once (received, and queued or classified); 503 with Retry-After above.",
        default: ServerLimits().maxRequests, defaultDescription: "64",
        transform: ValueParser.integer("max-requests", in: 1...100_000))
    static let requestTimeout = Option<Int>(
        name: "request-timeout", valueName: "SECONDS", help: "How long a request may wait for a classifier (503 after).",
        default: 30, defaultDescription: "30", transform: ValueParser.integer("request-timeout", in: 1...86_400))
    static let drain = Option<Double>(
        name: "drain-seconds", valueName: "SECONDS",
        help: "After SIGTERM, answer /v2/health/ready with 503 for this long while still serving every request, then "
            + "stop accepting (behind a load balancer: longer than its health check takes to mark the server down).",
        default: 0, defaultDescription: "0: stop accepting at once",
        transform: ValueParser.decimal("drain-seconds", in: 0...3_600))
    static let idleTimeout = Option<Int>(
        name: "idle-timeout", valueName: "SECONDS",
        help:
            "Close a connection idle this long, or whose request line and headers are not all in this long after it "
            + "opened or its previous response.", default: 30,
        defaultDescription: "30", transform: ValueParser.integer("idle-timeout", in: 1...86_400))
    static let minBodyRate = Option<Int>(
        name: "min-body-rate", valueName: "BYTES",
        help:
            "Bytes per second a request body must come at, on average, after its first 10 s (408 and closed below); "
            + "0: no minimum.", default: ServerLimits().minBodyBytesPerSecond, defaultDescription: "16384 (16 KiB/s)",
        transform: ValueParser.integer("min-body-rate", in: 0...Int(Int32.max)))
    static let maxConnections = Option<Int>(
        name: "max-connections", valueName: "N",
        help: "Open connections at most for requests; 16 more are kept for the health probes and /metrics.",
        default: ServerLimits().maxConnections, defaultDescription: "512",
        transform: ValueParser.integer("max-connections", in: 1...10_000))

    static let optionTable = [
        model.definition, task.definition, EmbedderOptionGroup.l2Normalize.definition, EmbedderOptionGroup.quantize.definition,
        label.definition, remote.definition, ModelCacheOption.cache.definition, host.definition, port.definition,
        workers.definition, threads.definition,
        locale.definition, tokenFile.definition, insecure.definition, maxBody.definition, maxImages.definition,
        maxRequests.definition, requestTimeout.definition, drain.definition, idleTimeout.definition, minBodyRate.definition,
        maxConnections.definition,
        StandardOptions.verbose.definition,
    ]

    /// The models to serve, in the order given: `--model`s, `--label`s, then `--remote`s.
    let specs: [ServedModelSpec]
    /// How their instances are made.
    let options: ServingCatalog.Options
    let configuration: ServerConfiguration
    let verbose: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else {
            throw UsageError("serve takes no arguments, got '\(parsed.positionals[0].path.description)'")
        }
        let models = try Self.pairs(parsed.values(Self.model), option: "model")
        let labelers = try Self.pairs(parsed.values(Self.label), option: "label")
        let remotes = parsed.values(Self.remote)
        if let name = remotes.first(where: { ModelName.problem($0) != nil }), let problem = ModelName.problem(name) {
            throw UsageError("--remote '\(TableText.escaped(name))': \(problem)")
        }
        if try parsed.value(ModelCacheOption.cache) != nil, remotes.isEmpty { throw UsageError("--cache goes with --remote") }
        let names = (models + labelers).map(\.name) + remotes
        guard !names.isEmpty else {
            throw UsageError("give at least one --model NAME=PATH, --label NAME=MANIFEST or --remote NAME")
        }
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw UsageError("the model name '\(duplicate)' is given twice")
        }
        var configuration = ServerConfiguration()
        configuration.host = try parsed.value(Self.host)
        configuration.port = UInt16(try parsed.value(Self.port))
        configuration.tokenFile = try parsed.value(Self.tokenFile)
        if !InferenceServer.isLoopback(configuration.host), configuration.tokenFile == nil, !parsed.isSet(Self.insecure) {
            throw UsageError(
                "--host \(configuration.host) is not a loopback address: give --token-file, or --insecure to serve without a token"
            )
        }
        configuration.limits.maxBodyBytes = try parsed.value(Self.maxBody)
        configuration.limits.maxImages = try parsed.value(Self.maxImages)
        configuration.limits.maxRequests = try parsed.value(Self.maxRequests)
        configuration.limits.requestTimeoutSeconds = Double(try parsed.value(Self.requestTimeout))
        configuration.limits.drainSeconds = try parsed.value(Self.drain)
        configuration.limits.idleTimeoutSeconds = try parsed.value(Self.idleTimeout)
        configuration.limits.minBodyBytesPerSecond = try parsed.value(Self.minBodyRate)
        configuration.limits.maxConnections = try parsed.value(Self.maxConnections)
        self.configuration = configuration
        let task = try parsed.value(Self.task)
        let workers = try parsed.value(Self.workers)
        specs =
            models.map { ServedModelSpec(name: $0.name, source: .model(path: $0.path), task: task, workers: workers) }
            + labelers.map { ServedModelSpec(name: $0.name, source: .manifest(path: $0.path), workers: workers) }
            + remotes.map { ServedModelSpec(name: $0, source: .remote(name: $0), task: task, workers: workers) }
        var options = ServingCatalog.Options()
        options.threads = try parsed.value(Self.threads)
        options.locale = try parsed.value(Self.locale)
        options.l2Normalize = parsed.isSet(EmbedderOptionGroup.l2Normalize)
        options.quantize = parsed.isSet(EmbedderOptionGroup.quantize)
        options.store = try ModelCacheOption.store(parsed)
        self.options = options
        verbose = parsed.isSet(StandardOptions.verbose)
    }

    /// `NAME=PATH` values; a name is a URL path segment.
    private static func pairs(_ values: [String], option: String) throws(UsageError) -> [(name: String, path: String)] {
        var pairs: [(name: String, path: String)] = []
        for value in values {
            guard let equals = value.firstIndex(of: "=") else {
                throw UsageError("--\(option) expects NAME=PATH, got '\(value)'")
            }
            let name = String(value[..<equals])
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(allowed.contains) else {
                throw UsageError("--\(option): the name '\(name)' must be letters, digits, '-', '_' or '.'")
            }
            pairs.append((name, String(value[value.index(after: equals)...])))
        }
        return pairs
    }

    func run() throws(UsageError) -> Int32 {
        guard let catalog = loadCatalog() else { return 1 }
        let server: InferenceServer
        do {
            server = try InferenceServer(configuration: configuration, catalog: catalog)
        } catch {
            StandardStreams.warn("error: \(error.message)")
            return 1
        }
        StandardStreams.warn("listening on \(server.address)")
        server.serveUntilTerminated()
        StandardStreams.warn("stopped")
        return 0
    }

    /// Every model's instances, or nil after reporting the first that failed to load, or
    /// embedder options with no embedder to apply them to.
    private func loadCatalog() -> ServingCatalog? {
        let load = { () throws(TasksError) in try ServingCatalog(specs, options: options) }
        guard let catalog = ModelLoading.load(verbose: verbose, load) else { return nil }
        if (options.l2Normalize || options.quantize) && !catalog.pools.contains(where: { $0.kind == .embedder }) {
            StandardStreams.warn(
                "error: --l2-normalize and --quantize apply to embedders, and no --model is served as one "
                    + "(a model without ImageEmbedder metadata needs --task embed)")
            return nil
        }
        return catalog
    }
}
