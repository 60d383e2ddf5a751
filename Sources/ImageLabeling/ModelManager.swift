import Foundation
import ModelCache
import ModelDownloads
import Synchronization
import TasksCommon

/// Downloads remote models into a per-user cache and tells whether they are there. Mirrors ML
/// Kit's `ModelManager` (`modelManager()`, `download(_:conditions:)`, `isModelDownloaded(_:)`,
/// `deleteDownloadedModel(_:completion:)`), with any HTTP server in place of Firebase.
///
/// Configure ``modelSource`` (or set `VISION_TASKS_MODEL_SOURCE`) and, if you wish,
/// ``cacheDirectory`` (default `$XDG_CACHE_HOME/swift-vision-tasks/models`, or
/// `VISION_TASKS_MODEL_CACHE`) before the first download. A download fetches the source's
/// `index.json`, the model's bundle into a temporary file in the cache, checks its size and
/// SHA-256 against the index, unpacks it (refusing absolute paths, `..`, symbolic links and
/// more than ``unpackedSizeLimit`` bytes), checks that it loads as a labeler, and only then
/// makes it the installed version. See <doc:RemoteModels>.
public final class ModelManager: Sendable {
    private static let shared = ModelManager()
    private let settings = Mutex(DownloadSettings.fromEnvironment())

    private init() {}

    /// The model manager of the process. Mirrors ML Kit's `ModelManager.modelManager()`.
    public static func modelManager() -> ModelManager { shared }

    /// The base URL of the default model source, whose `index.json` lists the models; nil when
    /// none is configured (downloads then fail). Default: `VISION_TASKS_MODEL_SOURCE`.
    /// A ``CustomRemoteModel`` with an ``HTTPModelSource`` URL uses that instead. Only http and
    /// https URLs with a host are fetched; a download from another URL fails with
    /// invalidArgument at the index step.
    public var modelSource: URL? {
        get { settings.withLock { $0.sourceURL } }
        set { settings.withLock { $0.sourceURL = newValue } }
    }

    /// The folder of downloaded models, created when needed. Default: `VISION_TASKS_MODEL_CACHE`,
    /// else `$XDG_CACHE_HOME/swift-vision-tasks/models`, else `$HOME/.cache/swift-vision-tasks/models`.
    public var cacheDirectory: URL {
        get { settings.withLock { $0.cacheDirectory } }
        set { settings.withLock { $0.cacheDirectory = newValue } }
    }

    /// Timeouts and retries of downloads.
    public var transferOptions: ModelTransferOptions {
        get { settings.withLock { ModelTransferOptions($0.transfer) } }
        set { settings.withLock { $0.transfer = newValue.settings } }
    }

    /// The most bytes a zip bundle may unpack to, all files together; a bundle over it fails
    /// (resourceExhausted). Default 2 GiB + 64 MiB: the largest TFLite model and its labels.
    public var unpackedSizeLimit: Int64 {
        get { settings.withLock { $0.unpackedSizeLimit } }
        set { settings.withLock { $0.unpackedSizeLimit = newValue } }
    }

    /// Starts downloading `remoteModel` if it is not installed or the source has a newer
    /// version, and returns at once.
    ///
    /// When it ends, `NotificationCenter.default` gets `.mlkitModelDownloadDidSucceed`
    /// or `.mlkitModelDownloadDidFail`. A call while a download of
    /// the same model is under way returns that download's progress and adds no notification.
    /// Labelers created before the new version is installed keep the version they loaded.
    /// - Parameters:
    ///   - remoteModel: the model, by its published name.
    ///   - conditions: kept for porting; no effect on Linux (see ``ModelDownloadConditions``).
    /// - Returns: the progress, in bytes of the bundle; its total is known once the index is read.
    ///   Cancelling it abandons the download (failure notification, code cancelled).
    @discardableResult
    public func download(_ remoteModel: RemoteModel, conditions: ModelDownloadConditions) -> Progress {
        let settings = self.settings.withLock { $0 }
        guard let source = remoteModel.sourceURL ?? settings.sourceURL else {
            let progress = Progress(totalUnitCount: 0)
            let error = TasksError.download(
                .failedPreconditionError, step: .index, model: remoteModel.name,
                "no model source is configured: set ModelManager.modelManager().modelSource or \(DownloadSettings.sourceVariable)."
            )
            Thread { Self.post(.mlkitModelDownloadDidFail, remoteModel, error) }.start()
            return progress
        }
        let request = ModelRequest(name: remoteModel.name, location: .index(baseURL: source))
        return ModelDownloader.shared.download(request, settings: settings, loadCheck: Self.loadCheck) { outcome in
            switch outcome {
            case .success: Self.post(.mlkitModelDownloadDidSucceed, remoteModel, nil)
            case .failure(let error): Self.post(.mlkitModelDownloadDidFail, remoteModel, error)
            }
        }.progress
    }

    /// Whether a version of `remoteModel` is installed in the cache. Mirrors ML Kit's
    /// `isModelDownloaded(_:)`.
    public func isModelDownloaded(_ remoteModel: RemoteModel) -> Bool {
        installed(remoteModel) != nil
    }

    /// Removes every installed version of `remoteModel` from the cache; `completion` gets nil,
    /// or the `TasksError` when the files cannot be removed. Labelers already created keep
    /// working. A download of the model under way (in this process or another) is waited for. Mirrors ML Kit's `deleteDownloadedModel(_:completion:)`; the completion runs on a
    /// global dispatch queue (a Linux program need not run the main queue).
    public func deleteDownloadedModel(_ remoteModel: RemoteModel, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let store = ModelStore(root: cacheDirectory)
        DispatchQueue.global().async {
            do throws(TasksError) {
                _ = try store.delete(remoteModel.name)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// The installed version of `remoteModel`, if any.
    func installed(_ remoteModel: RemoteModel) -> InstalledModel? {
        installed(named: remoteModel.name)
    }

    /// The installed version of the model called `name`, if any.
    package func installed(named name: String) -> InstalledModel? {
        guard ModelName.problem(name) == nil else { return nil }
        return ModelStore(root: cacheDirectory).installed(name)
    }

    /// The settings downloads use now.
    package var downloadSettings: DownloadSettings { settings.withLock { $0 } }

    /// A candidate passes when a labeler can be made from it.
    package static let loadCheck: ModelDownloader.LoadCheck = { candidate throws(TasksError) in
        _ = try LabelerConfiguration(CustomImageLabelerOptions(localModel: candidate.localModel)).makeEngine()
    }

    private static func post(_ name: Notification.Name, _ model: RemoteModel, _ error: TasksError?) {
        var userInfo: [AnyHashable: Any] = [ModelDownloadUserInfoKey.remoteModel.rawValue: model]
        if let error { userInfo[ModelDownloadUserInfoKey.error.rawValue] = error }
        NotificationCenter.default.post(name: name, object: nil, userInfo: userInfo)
    }
}

extension InstalledModel {
    /// The installed files as the local model a labeler reads.
    var localModel: LocalModel {
        switch kind {
        case .automlZip: AutoMLImageLabelerLocalModel(manifestPath: manifestURL.path)
        case .tflite: LocalModel(path: modelURL.path)
        }
    }
}
