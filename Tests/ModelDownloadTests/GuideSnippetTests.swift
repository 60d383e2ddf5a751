import Foundation
import ImageLabeling
import TestSupport
import Testing

extension ModelManagerSuites {
    /// The guide's remote-model snippets, against a local server: before the download the labeler
    /// is the bundled one; the download succeeds (seen by the guide's observer); then the remote
    /// model is used and labels exactly as the bundled export does.
    @Suite struct GuideSnippetTests {
        @MainActor @Test func remoteIfDownloadedElseLocal() async throws {
            let fixture = try DownloadFixture(name: "your_remote_model")
            try fixture.publishAutoML(version: 1)
            let local = try AutoMLExportFolder()
            let controller = GuideViewController(remoteModelName: fixture.name, localManifestPath: local.manifestPath)
            controller.observeDownloads()

            let image = try VisionImage(contentsOf: TestData.image("sparrow.jpg"))
            let (before, downloadedBefore) = controller.makeLabeler()
            #expect(!downloadedBefore)
            let localLabels = try before.results(in: image)

            let progress = controller.startDownload()
            #expect(await Waiting.wait(for: controller.log.arrived, safetyNet: 120))
            #expect(controller.log.all == [.succeeded])
            #expect(progress.fractionCompleted == 1)

            let (after, downloadedAfter) = controller.makeLabeler()
            #expect(downloadedAfter)
            #expect(try after.results(in: image) == localLabels)
            #expect(localLabels.count == 5)
        }
    }
}

/// The flowers export as a local folder (the "bundled" model of the guide).
final class AutoMLExportFolder {
    let folder: URL
    var manifestPath: String { folder.appendingPathComponent("manifest.json").path }

    init() throws {
        folder = try TestData.temporaryDirectory()
        for entry in StaticModelHost.automlEntries() {
            let target = folder.appendingPathComponent(entry["name"] as! String)
            if let file = entry["file"] as? String {
                try FileManager.default.copyItem(atPath: file, toPath: target.path)
            } else {
                try Data((entry["text"] as! String).utf8).write(to: target)
            }
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
