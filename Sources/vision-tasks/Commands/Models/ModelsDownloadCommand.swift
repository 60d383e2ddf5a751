import Foundation
import Glibc
import ImageLabeling
import ModelDownloads
import TasksCommon
import VisionTasks

/// `vision-tasks models download NAME`: a model from a model source's index, or one of
/// MediaPipe's published classifiers, through the same downloader as `ModelManager`.
struct ModelsDownloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models download",
        abstract: "Download a model from a model source, or MediaPipe's EfficientNet-Lite classifiers.",
        usage: "vision-tasks models download NAME [--source URL] [--sha256 HEX] [--precision P] [--cache DIR] [--timeout S]",
        discussion: """
            Downloads NAME from the model source's index.json (--source, else VISION_TASKS_MODEL_SOURCE)
            into the cache, or, for efficientnet_lite0 and efficientnet_lite2, MediaPipe's published
            model of --precision from \(MediaPipeModels.defaultBase)
            (--source or VISION_TASKS_MEDIAPIPE_MODELS replace that URL), cached as NAME_PRECISION.
            The bundle goes to a temporary file, must be complete (Content-Length; the index's size
            and SHA-256), unpack safely and load as a labeler (MediaPipe models: as an image
            classifier); only then does it replace the installed version. A failure leaves the
            installed version in place; one that is already the index's current version is kept and
            nothing is fetched. Prints the SHA-256 and the path (`models path` prints it later), and
            on stderr whether the model was downloaded or already current. Progress is shown on
            stderr when it is a terminal. A download of the same model into the same cache by another
            process is waited for. Ctrl-C stops the download and removes what it had received.
            """,
        epilogue:
            "EXIT STATUS: 0 when the model is installed, 1 when the download failed, 2 for a usage error, 130 after Ctrl-C.")

    static let source = Option<String?>(
        name: "source", valueName: "URL", help: "The model source's base URL (the folder serving index.json).")
    static let sha256 = Option<String?>(
        name: "sha256", valueName: "HEX", help: "The SHA-256 the bundle must have (64 hexadecimal digits).", default: nil
    ) { text throws(UsageError) in
        guard text.count == 64, text.allSatisfy(\.isHexDigit) else {
            throw UsageError("--sha256 expects 64 hexadecimal digits, got '\(TableText.escaped(text))'")
        }
        return text.lowercased()
    }
    static let precision = Option<String>(
        name: "precision", valueName: "P", help: "float32 or int8, for MediaPipe's models.", default: "float32",
        defaultDescription: "float32"
    ) { text throws(UsageError) in
        guard MediaPipeModels.precisions.contains(text) else {
            throw UsageError("--precision must be float32 or int8, got '\(TableText.escaped(text))'")
        }
        return text
    }
    static let timeout = Option<Double>(
        name: "timeout", valueName: "S", help: "Seconds without data before a transfer is abandoned (then retried).",
        default: 30, defaultDescription: "30"
    ) { text throws(UsageError) in
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw UsageError("--timeout expects a positive number of seconds, got '\(TableText.escaped(text))'")
        }
        return seconds
    }

    static let optionTable = [
        source.definition, sha256.definition, precision.definition, ModelCacheOption.cache.definition, timeout.definition,
    ]

    let request: ModelRequest
    let settings: DownloadSettings
    let isMediaPipeModel: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let name = try ModelCacheOption.modelName(parsed)
        let source = try parsed.value(Self.source)
        let pinned = try parsed.value(Self.sha256)
        var settings = ModelManager.modelManager().downloadSettings
        settings.cacheDirectory = try ModelCacheOption.store(parsed).root
        settings.transfer.stallTimeout = try parsed.value(Self.timeout)
        isMediaPipeModel = MediaPipeModels.names.contains(name)
        if isMediaPipeModel {
            let precision = try parsed.value(Self.precision)
            guard let url = MediaPipeModels.url(name: name, precision: precision, base: source) else {
                throw UsageError("--source is not a URL: '\(TableText.escaped(source ?? ""))'")
            }
            try Self.checkSource(url, given: source, variable: MediaPipeModels.baseVariable)
            request = ModelRequest(
                name: MediaPipeModels.cacheName(name: name, precision: precision), location: .file(url, kind: .tflite),
                pinnedSHA256: pinned)
        } else {
            guard parsed.contains(Self.precision.definition) == false else {
                throw UsageError("--precision is for \(MediaPipeModels.names.joined(separator: " and ")) only")
            }
            let base: URL
            if let source {
                guard let url = URL(string: source), url.scheme != nil else {
                    throw UsageError("--source is not a URL: '\(TableText.escaped(source))'")
                }
                base = url
            } else {
                guard let url = settings.sourceURL else {
                    throw UsageError("no model source: give --source URL or set \(DownloadSettings.sourceVariable)")
                }
                base = url
            }
            try Self.checkSource(base, given: source, variable: DownloadSettings.sourceVariable)
            request = ModelRequest(name: name, location: .index(baseURL: base), pinnedSHA256: pinned)
        }
        self.settings = settings
    }

    /// A source that cannot be fetched is a usage error, named as the user gave it: `--source`
    /// or the environment `variable`.
    private static func checkSource(_ url: URL, given source: String?, variable: String) throws(UsageError) {
        guard let problem = HTTPTransfer.problem(with: url) else { return }
        let origin = source.map { "--source '\(TableText.escaped($0))'" } ?? variable
        throw UsageError("\(origin): \(problem)")
    }

    func run() throws(UsageError) -> Int32 {
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        let check = isMediaPipeModel ? Self.classifierLoadCheck : ModelManager.loadCheck
        let loadCheck: ModelDownloader.LoadCheck = { candidate throws(TasksError) in try check(candidate) }
        // Ctrl-C cancels the download, which removes its staging folder before the exit (130).
        signal(SIGINT, SIG_IGN)
        let waiting =
            "\(request.name): another process is downloading it into \(settings.cacheDirectory.path); "
            + "waiting for it to finish"
        let progress = ModelDownloader.shared.download(
            request, settings: settings, loadCheck: loadCheck, whileWaiting: { StandardStreams.warn(waiting) }
        ) {
            outcome.set($0)
            done.signal()
        }.progress
        let interruption = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interruption.setEventHandler { progress.cancel() }
        interruption.resume()
        defer { interruption.cancel() }
        var line = DownloadProgressLine(name: request.name)
        while done.wait(timeout: .now() + 0.1) == .timedOut {
            line.draw(progress)
        }
        line.clear()
        return report(
            outcome.get() ?? .failure(.internal("the download ended without an outcome.")), interrupted: progress.isCancelled)
    }

    /// Prints the outcome; the exit status: 0, 1, or 130 for a download ended by Ctrl-C.
    private func report(_ outcome: Result<CompletedDownload, TasksError>, interrupted: Bool) -> Int32 {
        switch outcome {
        case .success(let download):
            let model = download.model
            StandardStreams.warn(
                download.fetched
                    ? "downloaded \(model.name) version \(model.version)"
                    : "\(model.name) version \(model.version) is already installed and current: nothing downloaded")
            print("\(model.name)\tversion \(model.version)\tsha256 \(model.sha256)")
            print(model.kind == .automlZip ? model.manifestURL.path : model.modelURL.path)
            return 0
        case .failure(let error):
            StandardStreams.reportError(error)
            // Ctrl-C during a wait between retries ends with the last attempt's error: still 130.
            return interrupted ? 130 : 1
        }
    }

    /// MediaPipe's models must load as image classifiers.
    private static let classifierLoadCheck: ModelDownloader.LoadCheck = { candidate throws(TasksError) in
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = candidate.modelURL.path
        do {
            _ = try ImageClassifier(options: options)
        } catch {
            throw TasksError.wrapping(error)
        }
    }
}

/// The outcome the download thread hands to the main thread.
private final class OutcomeBox: @unchecked Sendable {
    // @unchecked: `value` is guarded by `lock`.
    private let lock = NSLock()
    private var value: Result<CompletedDownload, TasksError>?

    func set(_ outcome: Result<CompletedDownload, TasksError>) { lock.withLock { value = outcome } }
    func get() -> Result<CompletedDownload, TasksError>? { lock.withLock { value } }
}

/// "flowers: 45% (203 of 452 kB)" on stderr, redrawn in place, only when stderr is a terminal.
struct DownloadProgressLine {
    private let name: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private var shown = false

    init(name: String) { self.name = name }

    mutating func draw(_ progress: Progress) {
        guard enabled else { return }
        let done = progress.completedUnitCount
        let total = progress.totalUnitCount
        let text =
            total > 0
            ? "\(name): \(Int(100 * done / total))% (\(done / 1000) of \(total / 1000) kB)"
            : "\(name): \(done / 1000) kB"
        StandardStreams.writeError(Data("\r\u{1B}[K\(text)".utf8))
        shown = true
    }

    mutating func clear() {
        guard shown else { return }
        StandardStreams.writeError(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}
