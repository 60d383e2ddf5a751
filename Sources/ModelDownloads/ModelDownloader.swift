import FileSystem
import Foundation
import ModelCache
import Synchronization
import TasksCommon

/// What to download.
package struct ModelRequest: Sendable {
    /// Where the bundle is found.
    package enum Location: Sendable {
        /// Through the `index.json` at this base URL.
        case index(baseURL: URL)
        /// At this URL, without an index (MediaPipe's published models); the size comes from
        /// Content-Length, which the server must send.
        case file(URL, kind: ModelIndex.Kind)
    }

    /// The model's name in the index and in the cache.
    package let name: String
    package let location: Location
    /// A SHA-256 the bundle must have, besides the index's (`--sha256`).
    package let pinnedSHA256: String?

    package init(name: String, location: Location, pinnedSHA256: String? = nil) {
        (self.name, self.location, self.pinnedSHA256) = (name, location, pinnedSHA256?.lowercased())
    }
}

/// A download that ended well: the installed model, and whether this download fetched it.
package struct CompletedDownload: Sendable {
    /// The model as the cache holds it now.
    package let model: InstalledModel
    /// False when the installed version was already the index's (same version and SHA-256, and
    /// the pinned SHA-256 if any): nothing was fetched.
    package let fetched: Bool
}

/// Downloads models into a `ModelStore`: index, transfer, verify, unpack, load check, install.
///
/// Each download runs on a thread of its own. A failure at any step keeps the installed version
/// current, removes the staging folder and reports a `TasksError` whose subject is the model and
/// whose reason names the step. A download of a model while one of the same model into the same
/// cache is under way joins it: the call returns the running download's `Progress`, and the
/// first call's completion reports the outcome. Across processes, downloads of one model into
/// one cache take turns under the model's `ModelLock`: the later one then finds the model
/// current and fetches nothing. A download removes the temporaries that dead processes left
/// in the model's folder.
package final class ModelDownloader: Sendable {
    /// The downloads of this process.
    package static let shared = ModelDownloader()

    /// Checks that an unpacked candidate loads; throws the loader's error.
    package typealias LoadCheck = @Sendable (InstalledModel) throws(TasksError) -> Void

    private let running = Mutex<[String: Progress]>([:])

    /// Starts downloading (or joins the running download of) `request` with `settings`.
    /// - Parameters:
    ///   - whileWaiting: called, on the download's thread, when the download must wait for
    ///     another process's download or install of the model to finish.
    /// - Returns: the progress in bytes of the bundle (its total is set once the size is known)
    ///   and whether this call started the download (false: it joined one). Cancelling the
    ///   progress ends the download with a cancelled error, also while it waits.
    package func download(
        _ request: ModelRequest, settings: DownloadSettings, loadCheck: @escaping LoadCheck,
        whileWaiting: @escaping @Sendable () -> Void = {},
        completion: @escaping @Sendable (Result<CompletedDownload, TasksError>) -> Void
    ) -> (progress: Progress, started: Bool) {
        let key = ModelStore(root: settings.cacheDirectory).folder(request.name).standardizedFileURL.path
        let (progress, started) = running.withLock { running -> (Progress, Bool) in
            if let progress = running[key] { return (progress, false) }
            let progress = Progress(totalUnitCount: -1)
            running[key] = progress
            return (progress, true)
        }
        guard started else { return (progress, false) }
        let job = DownloadJob(
            request: request, settings: settings, progress: progress, loadCheck: loadCheck, whileWaiting: whileWaiting)
        let thread = Thread {
            let outcome = Result { () throws(TasksError) in try job.run() }
            _ = self.running.withLock { $0.removeValue(forKey: key) }
            completion(outcome)
        }
        thread.name = "ModelDownloader \(request.name)"
        thread.start()
        return (progress, true)
    }
}

/// One download, run on its own thread.
private struct DownloadJob: Sendable {
    let request: ModelRequest
    let settings: DownloadSettings
    let progress: Progress
    let loadCheck: ModelDownloader.LoadCheck
    let whileWaiting: @Sendable () -> Void

    private var name: String { request.name }
    private var store: ModelStore { ModelStore(root: settings.cacheDirectory) }

    func run() throws(TasksError) -> CompletedDownload {
        if let problem = ModelName.problem(name) {
            throw .invalidArgument("cannot download \"\(name)\": \(problem)", subject: .remoteModel(name))
        }
        let lock = try store.lock(name, whileBusy: whileWaiting, isCancelled: { [progress] in progress.isCancelled })
        // Held until the clean-up below is done (the first defer runs last).
        defer { withExtendedLifetime(lock) {} }
        store.removeTemporaries(of: name, holding: lock)
        let staging = try store.makeStagingFolder(name, holding: lock)
        defer {
            try? FileManager.default.removeItem(at: staging)
            // A first download that failed leaves no empty model folder (rmdir keeps a non-empty one).
            FileTree.remove(FileSystemPath(store.folder(name).path))
        }
        let (url, entry) = try resolve(in: staging)
        if let entry, let installed = store.installed(name), installed.version == entry.version,
            installed.sha256 == entry.sha256, request.pinnedSHA256 == nil || request.pinnedSHA256 == entry.sha256
        {
            progress.totalUnitCount = entry.size
            progress.completedUnitCount = entry.size
            return CompletedDownload(model: installed, fetched: false)
        }
        let bundle = staging.appendingPathComponent("bundle")
        let outcome = try transfer(url, to: bundle, expectedSize: entry?.size)
        try verify(outcome, entry: entry)
        let kind = entry?.kind ?? request.kind
        let unpacked = try unpack(bundle, kind: kind, in: staging)
        let candidate = InstalledModel(
            name: name, version: entry?.version ?? 1, sha256: outcome.sha256, kind: kind, directory: unpacked)
        do throws(BundleUnpacking.Failure) {
            try BundleUnpacking.check(candidate, with: loadCheck)
        } catch {
            throw .download(error.code, step: error.step, model: name, error.reason)
        }
        // Unpacking and the load check do not poll the cancellation: a cancelled download must not install.
        if progress.isCancelled {
            throw .download(.cancelledError, step: .install, model: name, "the download was cancelled.")
        }
        let installed = try store.install(
            unpacked, name: name, version: candidate.version, sha256: outcome.sha256, kind: kind, holding: lock)
        return CompletedDownload(model: installed, fetched: true)
    }

    /// The bundle's URL and, from an index, its entry.
    private func resolve(in staging: URL) throws(TasksError) -> (URL, ModelIndex.Entry?) {
        switch request.location {
        case .file(let url, _):
            return (url, nil)
        case .index(let baseURL):
            let base = baseURL.absoluteString.hasSuffix("/") ? baseURL : URL(string: baseURL.absoluteString + "/") ?? baseURL
            let indexURL = base.appendingPathComponent(ModelIndex.fileName)
            let file = staging.appendingPathComponent(ModelIndex.fileName)
            do throws(HTTPTransfer.Failure) {
                _ = try HTTPTransfer.fetch(
                    indexURL, to: file, settings: settings.transfer,
                    maximumByteCount: Int64(ModelIndex.fileKind.maximumByteCount), expectedByteCount: nil,
                    progress: { _ in }, isCancelled: { [progress] in progress.isCancelled })
            } catch {
                throw .download(error.code, step: .index, model: name, error.reason)
            }
            let index: ModelIndex
            do throws(TasksError) {
                let bytes = try FileReader.contents(atPath: file.path, as: ModelIndex.fileKind)
                index = try ModelIndex(json: Data(bytes), subject: .buffer(indexURL.absoluteString))
            } catch {
                throw error.inDownload(step: .index, model: name)
            }
            guard let entry = index.models[name] else {
                throw .download(
                    .notFoundError, step: .index, model: name,
                    "\(indexURL.absoluteString) lists no model \"\(name)\" (it lists \(index.models.keys.sorted().joined(separator: ", ")))."
                )
            }
            // The transfer would refuse such a bundle anyway, but only after requesting it.
            guard entry.size <= settings.unpackedSizeLimit else {
                throw .download(
                    .resourceExhaustedError, step: .index, model: name,
                    "\(indexURL.absoluteString) gives model \"\(name)\" the size \(entry.size) bytes, over the limit of "
                        + "\(settings.unpackedSizeLimit) bytes for a bundle (ModelManager.unpackedSizeLimit).")
            }
            guard let url = URL(string: entry.file, relativeTo: base)?.absoluteURL else {
                throw .download(.invalidArgumentError, step: .index, model: name, "\"\(entry.file)\" is not a URL path.")
            }
            return (url, entry)
        }
    }

    private func transfer(_ url: URL, to file: URL, expectedSize: Int64?) throws(TasksError) -> HTTPTransfer.Outcome {
        if let expectedSize { progress.totalUnitCount = expectedSize }
        do throws(HTTPTransfer.Failure) {
            return try HTTPTransfer.fetch(
                url, to: file, settings: settings.transfer, maximumByteCount: settings.unpackedSizeLimit,
                expectedByteCount: expectedSize,
                progress: { [progress] received in
                    if progress.totalUnitCount < received { progress.totalUnitCount = received }
                    progress.completedUnitCount = received
                }, isCancelled: { [progress] in progress.isCancelled })
        } catch {
            throw .download(error.code, step: .transfer, model: name, error.reason)
        }
    }

    private func verify(_ outcome: HTTPTransfer.Outcome, entry: ModelIndex.Entry?) throws(TasksError) {
        // Without an index, only Content-Length tells a complete file from a cut one.
        if entry == nil, outcome.contentLength == nil {
            throw .download(
                .dataLossError, step: .verify, model: name,
                "the server sent no Content-Length, so the download cannot be checked to be complete.")
        }
        if let entry, outcome.byteCount != entry.size {
            throw .download(
                .dataLossError, step: .verify, model: name, "received \(outcome.byteCount) bytes, the index says \(entry.size).")
        }
        if let entry, outcome.sha256 != entry.sha256 {
            throw .download(
                .dataLossError, step: .verify, model: name,
                "the bundle's SHA-256 is \(outcome.sha256), the index says \(entry.sha256).")
        }
        if let pinned = request.pinnedSHA256, outcome.sha256 != pinned {
            throw .download(
                .dataLossError, step: .verify, model: name, "the bundle's SHA-256 is \(outcome.sha256), expected \(pinned).")
        }
    }

    /// The folder to install: the zip's contents, or the single model as `model.tflite`.
    private func unpack(_ bundle: URL, kind: ModelIndex.Kind, in staging: URL) throws(TasksError) -> URL {
        let unpacked = staging.appendingPathComponent("unpacked", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: false)
        } catch {
            throw .download(.internalError, step: .unpack, model: name, "cannot prepare \(unpacked.path): \(error)")
        }
        do throws(BundleUnpacking.Failure) {
            try BundleUnpacking.place(bundle, kind: kind, into: unpacked, move: true, sizeLimit: settings.unpackedSizeLimit)
        } catch {
            throw .download(error.code, step: error.step, model: name, error.reason)
        }
        return unpacked
    }
}

extension ModelRequest {
    /// The kind of a bundle fetched without an index.
    fileprivate var kind: ModelIndex.Kind {
        if case .file(_, let kind) = location { return kind }
        return .automlZip
    }
}
