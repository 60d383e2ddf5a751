import Foundation
import ImageLabeling
import ModelCache
import ModelDownloads
import TasksCommon
import TestSupport
import Testing

/// A model server, a fresh cache set on the shared `ModelManager`, and helpers to publish and
/// download versions of one model. The suites using it are serialized: the manager is global.
final class DownloadFixture: @unchecked Sendable {
    // @unchecked: used by one test at a time.
    let server: StaticModelHost
    let cache: URL
    let name: String
    var manager: ModelManager { ModelManager.modelManager() }
    var remoteModel: AutoMLImageLabelerRemoteModel { AutoMLImageLabelerRemoteModel(name: name) }

    static let images = ["burger.jpg", "sparrow.jpg", "dogs.jpg", "cat.jpg", "grace_hopper.jpg", "sparrow.png"]

    init(
        name: String = "flowers",
        transfer: ModelTransferOptions = ModelTransferOptions(stallTimeout: 60, maxAttempts: 2, retryDelay: 0)
    )
        throws
    {
        server = try StaticModelHost()
        cache = try TestData.temporaryDirectory()
        self.name = name
        manager.modelSource = server.baseURL
        manager.cacheDirectory = cache
        manager.transferOptions = transfer
        manager.unpackedSizeLimit = 8 << 20
    }

    deinit { try? FileManager.default.removeItem(at: cache) }

    /// Publishes the flowers export as `version` (zip `<name>-v<version>.zip`) with `labels`.
    func publishAutoML(version: Int, labels: [String] = AutoMLBundle.labels) throws {
        let file = "\(name)-v\(version).zip"
        try server.makeZip(file, StaticModelHost.automlEntries(labels: labels))
        try server.publish([name: (file, version, .automlZip)])
    }

    /// Downloads and returns the notification that ended the download.
    func download() async -> DownloadWatcher.Event? {
        let watcher = DownloadWatcher(name: name)
        manager.download(
            remoteModel, conditions: ModelDownloadConditions(allowsCellularAccess: true, allowsBackgroundDownloading: true))
        return await watcher.next()
    }

    /// Downloads, expecting the failure notification: its error, or nil after recording what
    /// came instead.
    func failedDownload(_ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) async -> TasksError? {
        let event = await download()
        guard case .failed(let error) = event else {
            Issue.record("\(context)expected a failure, got \(String(describing: event))", sourceLocation: sourceLocation)
            return nil
        }
        return error
    }

    /// The installed version, read from the cache.
    var installed: InstalledModel? { ModelStore(root: cache).installed(name) }

    /// Entries of the model's cache folder left by downloads (staging folders, pointer temporaries).
    var temporaries: [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent(name).path)) ?? []
        return entries.filter { $0.hasPrefix(".") }
    }

    /// Labels every shared photo with `options` (threshold 0, as the guide sets it).
    func labels(_ options: CommonImageLabelerOptions) throws -> [[ImageLabel]] {
        options.confidenceThreshold = NSNumber(value: 0.0)
        let labeler = try ImageLabeler(options: options)
        return try Self.images.map { try labeler.results(in: VisionImage(contentsOf: TestData.image($0))) }
    }

    /// What the local export of the flowers model gives for every shared photo.
    func localLabels() throws -> [[ImageLabel]] {
        let export = try AutoMLExportFolder()
        return try labels(AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath)))
    }
}

/// The suites using `ModelManager.modelManager()`, which is global: run one test at a time.
@Suite(.serialized, .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
enum ModelManagerSuites {}
