import Foundation
import ImageLabeling
import ModelDownloads
import TasksCommon
import TestSupport
import Testing

extension ImageLabel {
    fileprivate var summary: String { "\(index) \(text) \(confidence)" }
}

extension ModelManagerSuites {
    @Suite struct RemoteModelDownloadTests {
        /// Progress reaches the bundle's size, the success notification arrives, and a labeler from
        /// the remote model labels every photo exactly like the local export.
        @Test func downloadsAndLabelsLikeTheLocalExport() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            #expect(!fixture.manager.isModelDownloaded(fixture.remoteModel))
            let watcher = DownloadWatcher(name: fixture.name)
            let progress = fixture.manager.download(fixture.remoteModel, conditions: ModelDownloadConditions())
            #expect(await watcher.next() == .succeeded)
            let size = try #require(
                try FileManager.default.attributesOfItem(
                    atPath: fixture.server.root.appendingPathComponent("flowers-v1.zip").path)[.size] as? NSNumber
            ).int64Value
            #expect(progress.totalUnitCount == size)
            #expect(progress.completedUnitCount == size)
            #expect(progress.fractionCompleted == 1)
            #expect(fixture.manager.isModelDownloaded(fixture.remoteModel))
            #expect(fixture.installed?.version == 1)
            #expect(fixture.temporaries == [])

            let expected = try fixture.localLabels().map { $0.map(\.summary) }
            let automl = try fixture.labels(AutoMLImageLabelerOptions(remoteModel: fixture.remoteModel)).map { $0.map(\.summary) }
            #expect(automl == expected)
            #expect(expected.allSatisfy { $0.count == 5 })
            let custom = CustomRemoteModel(
                remoteModelSource: HTTPModelSource(name: fixture.name, baseURL: fixture.server.baseURL))
            #expect(try fixture.labels(CustomImageLabelerOptions(remoteModel: custom)).map { $0.map(\.summary) } == expected)
        }

        /// Before a download, a labeler from a remote model fails naming the model.
        @Test func labelerBeforeDownloadFailsNamingTheModel() throws {
            let fixture = try DownloadFixture(name: "never-downloaded")
            let options = AutoMLImageLabelerOptions(remoteModel: fixture.remoteModel)
            expectTasksError(.failedPreconditionError, containing: ["never-downloaded: the remote model is not downloaded"]) {
                try ImageLabeler(options: options)
            }
            let labeler = ImageLabeler.imageLabeler(options: options)
            let image = try VisionImage(contentsOf: TestData.image("burger.jpg"))
            expectTasksError(.failedPreconditionError, containing: "not downloaded") { try labeler.results(in: image) }
        }

        /// A name the index lacks: notFound naming the index and what it lists; nothing left in the cache.
        @Test func unknownNameFailsAndLeavesNothing() async throws {
            let fixture = try DownloadFixture(name: "tulips-only")
            try fixture.server.makeZip("flowers-v1.zip", StaticModelHost.automlEntries())
            try fixture.server.publish(["flowers": ("flowers-v1.zip", 1, .automlZip)])
            let event = await fixture.download()
            let index = fixture.server.baseURL.appendingPathComponent("index.json").absoluteString
            #expect(
                event
                    == .failed(
                        .notFound(
                            "download failed at step index: \(index) lists no model \"tulips-only\" (it lists flowers).",
                            subject: .remoteModel("tulips-only"))))
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.cache.path) == [])
        }

        /// Without a model source, the download fails at once with failedPrecondition.
        @Test func noModelSourceFails() async throws {
            let fixture = try DownloadFixture()
            fixture.manager.modelSource = nil
            guard let error = await fixture.failedDownload() else { return }
            #expect(error.code == .failedPreconditionError)
            #expect(error.message.contains("no model source is configured"), "\(error)")
        }

        /// A download of the version already installed transfers nothing and succeeds.
        @Test func upToDateModelIsNotTransferredAgain() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            #expect(await fixture.download() == .succeeded)
            #expect(await fixture.download() == .succeeded)
            #expect(fixture.server.requestCount("/flowers-v1.zip") == 1)
            #expect(fixture.server.requestCount("/index.json") == 2)
        }

        /// Deleting removes the installed model; labelers then fail as before a download.
        @Test func deleteRemovesTheModel() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            #expect(await fixture.download() == .succeeded)
            let done = DispatchSemaphore(value: 0)
            let failure = Locked<String?>(nil)
            fixture.manager.deleteDownloadedModel(fixture.remoteModel) { error in
                failure.withLock { $0 = error.map { "\($0)" } }
                done.signal()
            }
            #expect(await Waiting.wait(for: done, safetyNet: 60))
            #expect(failure.withLock { $0 } == nil)
            #expect(!fixture.manager.isModelDownloaded(fixture.remoteModel))
        }
    }
}
