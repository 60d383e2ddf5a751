// The ML Kit guide's remote-model snippets, ported by changing only the imports; run against a
// local server by GuideSnippetTests, and type-checked without any diagnostic by
// scripts/check-porting-diagnostics (scripts/porting-diagnostics/guide-remote-models.swift links here).
// expect: no diagnostics
import ImageLabeling  // ML Kit: import MLKit (both bring Foundation)
import Synchronization  // ours: GuideLog

/// The remote-model snippets of ML Kit's guide "Label images with an AutoML-trained model on
/// iOS", in a view-controller-like class as an app has them. Only the imports differ from the
/// guide; the lines marked "ours" record what happened, for the test.
@MainActor
final class GuideViewController {
    /// What the observers saw (ours).
    nonisolated let log = GuideLog()
    let remoteModelName: String
    let localManifestPath: String
    private var observers: [any NSObjectProtocol] = []

    init(remoteModelName: String, localManifestPath: String) {
        self.remoteModelName = remoteModelName
        self.localManifestPath = localManifestPath
    }

    func startDownload() -> Progress {
        // --- From the guide: "Configure a Firebase-hosted model source" ---
        let remoteModel = AutoMLImageLabelerRemoteModel(
            name: remoteModelName  // The name you assigned in the Firebase console.
        )
        // --- From the guide: "Download the model" ---
        let downloadConditions = ModelDownloadConditions(
            allowsCellularAccess: true,
            allowsBackgroundDownloading: true
        )
        let downloadProgress = ModelManager.modelManager().download(
            remoteModel,
            conditions: downloadConditions
        )
        // --- End ---
        return downloadProgress
    }

    func observeDownloads() {
        let remoteModelName = self.remoteModelName  // ours: the guide writes the name literally
        // --- From the guide: "check the model's download status" ---
        observers.append(
            NotificationCenter.default.addObserver(
                forName: .mlkitModelDownloadDidSucceed,
                object: nil,
                queue: nil
            ) { [weak self] notification in
                guard let strongSelf = self,
                    let userInfo = notification.userInfo,
                    let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]
                        as? RemoteModel,
                    model.name == remoteModelName
                else { return }
                // The model was downloaded and is available on the device
                strongSelf.log.record(.succeeded)  // ours
            })

        observers.append(
            NotificationCenter.default.addObserver(
                forName: .mlkitModelDownloadDidFail,
                object: nil,
                queue: nil
            ) { [weak self] notification in
                guard let strongSelf = self,
                    let userInfo = notification.userInfo,
                    let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]
                        as? RemoteModel
                else { return }
                let error = userInfo[ModelDownloadUserInfoKey.error.rawValue]
                // ...
                if model.name == remoteModelName { strongSelf.log.record(.failed("\(error ?? "")")) }  // ours
            })
        // --- End ---
    }

    func makeLabeler() -> (ImageLabeler, isDownloaded: Bool) {
        let remoteModel = AutoMLImageLabelerRemoteModel(name: remoteModelName)
        let localModel = AutoMLImageLabelerLocalModel(manifestPath: localManifestPath)
        // --- From the guide: "Create an image labeler from your model" ---
        let options: CommonImageLabelerOptions!
        if (ModelManager.modelManager().isModelDownloaded(remoteModel)) {
            options = AutoMLImageLabelerOptions(remoteModel: remoteModel)
        } else {
            options = AutoMLImageLabelerOptions(localModel: localModel)
        }
        options.confidenceThreshold = NSNumber(value: 0.0)  // Evaluate your model in the Firebase console
        // to determine an appropriate value.
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        // --- End ---
        return (imageLabeler, ModelManager.modelManager().isModelDownloaded(remoteModel))  // ours
    }
}

/// What the guide's observers saw (ours).
final class GuideLog: Sendable {
    enum Event: Equatable, Sendable {
        case succeeded
        case failed(String)
    }

    private let events = Mutex<[Event]>([])
    let arrived = DispatchSemaphore(value: 0)

    func record(_ event: Event) {
        events.withLock { $0.append(event) }
        arrived.signal()
    }

    var all: [Event] { events.withLock { $0 } }
}
