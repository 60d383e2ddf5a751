// The ML Kit guide's remote-model snippets, ported by changing only the imports: no diagnostics.
// (The observers' bodies, comments in the guide, use `strongSelf` and `error` here, as an app's
// do: unused, they would be warnings on iOS too. `_ =` before addObserver: swift-corelibs-foundation
// does not mark it @discardableResult, as Apple's Objective-C import is, so Linux warns without it.)
// Run against a server by ModelDownloadTests' GuideSnippetTests.
// expect: no diagnostics
import Foundation  // ML Kit: UIKit
import ImageLabeling  // ML Kit: import MLKit

@MainActor
final class ViewController {
    var status = ""

    func setUpRemoteModel(localModel: AutoMLImageLabelerLocalModel) -> ImageLabeler {
        let remoteModel = AutoMLImageLabelerRemoteModel(
            name: "your_remote_model"  // The name you assigned in the Firebase console.
        )

        let downloadConditions = ModelDownloadConditions(
            allowsCellularAccess: true,
            allowsBackgroundDownloading: true
        )
        let downloadProgress = ModelManager.modelManager().download(
            remoteModel,
            conditions: downloadConditions
        )
        status = "\(downloadProgress.fractionCompleted)"

        let options: CommonImageLabelerOptions!
        if (ModelManager.modelManager().isModelDownloaded(remoteModel)) {
            options = AutoMLImageLabelerOptions(remoteModel: remoteModel)
        } else {
            options = AutoMLImageLabelerOptions(localModel: localModel)
        }
        options.confidenceThreshold = NSNumber(value: 0.0)  // Evaluate your model in the Firebase console
        // to determine an appropriate value.
        let imageLabeler = ImageLabeler.imageLabeler(options: options)
        return imageLabeler
    }

    func observeDownloads() {
        _ = NotificationCenter.default.addObserver(
            forName: .mlkitModelDownloadDidSucceed,
            object: nil,
            queue: nil
        ) { [weak self] notification in
            guard let strongSelf = self,
                let userInfo = notification.userInfo,
                let model = userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]
                    as? RemoteModel,
                model.name == "your_remote_model"
            else { return }
            // The model was downloaded and is available on the device
            print(strongSelf, model.name)
        }

        _ = NotificationCenter.default.addObserver(
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
            print(strongSelf, model.name, error ?? "")
        }
    }
}
