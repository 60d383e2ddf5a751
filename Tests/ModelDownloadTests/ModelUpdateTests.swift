import Foundation
import ImageLabeling
import TasksCommon
import TestSupport
import Testing

extension ModelManagerSuites {
    @Suite struct ModelUpdateTests {
        /// Version 2 (its labels upper-cased) replaces version 1 while a labeler made from version
        /// 1 classifies on another thread; that labeler keeps giving version 1's answers, a new
        /// labeler gives version 2's.
        @Test func newVersionReplacesTheOldWhileItClassifies() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            #expect(await fixture.download() == .succeeded)
            let options = AutoMLImageLabelerOptions(remoteModel: fixture.remoteModel)
            options.confidenceThreshold = NSNumber(value: 0.0)
            let v1Labeler = try ImageLabeler(options: options)
            let image = try VisionImage(contentsOf: TestData.image("sparrow.jpg"))
            let v1Labels = try v1Labeler.results(in: image)

            let stop = Locked(false)
            let outcomes = Locked<[Result<[ImageLabel], any Error>]>([])
            let classifying = Thread {
                guard let image = try? VisionImage(contentsOf: TestData.image("sparrow.jpg")) else { return }
                while !stop.withLock({ $0 }) {
                    let outcome = Result { try v1Labeler.results(in: image) }
                    outcomes.withLock { $0.append(outcome) }
                }
            }
            classifying.start()
            #expect(await Waiting.poll(safetyNet: 60) { outcomes.withLock { !$0.isEmpty } })

            let upper = AutoMLBundle.labels.map { $0.uppercased() }
            try fixture.publishAutoML(version: 2, labels: upper)
            #expect(await fixture.download() == .succeeded)
            let countAtSwap = outcomes.withLock { $0.count }
            #expect(await Waiting.poll(safetyNet: 60) { outcomes.withLock { $0.count > countAtSwap } })
            stop.withLock { $0 = true }

            #expect(fixture.installed?.version == 2)
            for outcome in outcomes.withLock({ $0 }) {
                #expect(try outcome.get() == v1Labels)
            }
            let v2Labels = try ImageLabeler(options: options).results(in: image)
            #expect(v2Labels.map(\.text) == v1Labels.map { $0.text.uppercased() })
            #expect(v2Labels.map(\.confidence) == v1Labels.map(\.confidence))
        }

        /// Two downloads started together share one transfer: one request for the bundle, one
        /// progress, one notification.
        @Test func concurrentDownloadsShareOneTransfer() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            let watcher = DownloadWatcher(name: fixture.name)
            let conditions = ModelDownloadConditions()
            let first = fixture.manager.download(fixture.remoteModel, conditions: conditions)
            let second = fixture.manager.download(fixture.remoteModel, conditions: conditions)
            #expect(first === second)
            #expect(await watcher.next() == .succeeded)
            #expect(fixture.server.requestCount("/flowers-v1.zip") == 1)
            #expect(fixture.server.requestCount("/index.json") == 1)
            #expect(watcher.pending == [])
        }
    }
}
