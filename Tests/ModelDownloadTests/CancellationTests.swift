import Foundation
import ImageLabeling
import TasksCommon
import TestSupport
import Testing

extension ModelManagerSuites {
    /// Cancelling a download's `Progress` mid-transfer ends it (the corelibs URLSession
    /// cancellation deadlock is a race, so this runs in a loop, each round with a safety net).
    @Suite struct CancellationTests {
        @Test func cancellingMidTransferEndsTheDownload() async throws {
            // The stall timeout is far beyond the safety nets: on a loaded machine the test's
            // task may resume a minute after the first bytes (cooperative threads all busy), and
            // the cancel must still come before the stall ends the transfer on its own.
            let fixture = try DownloadFixture(transfer: ModelTransferOptions(stallTimeout: 900, maxAttempts: 1))
            try fixture.publishAutoML(version: 1)
            try fixture.server.inject("stall", at: "/flowers-v1.zip")
            for round in 1...10 {
                let watcher = DownloadWatcher(name: fixture.name)
                let progress = fixture.manager.download(fixture.remoteModel, conditions: ModelDownloadConditions())
                #expect(await Waiting.poll(safetyNet: 60) { progress.completedUnitCount > 0 }, "round \(round)")
                progress.cancel()
                guard case .failed(let error) = await watcher.next(safetyNet: 60) else {
                    Issue.record("round \(round): no failure notification after cancel")
                    return
                }
                #expect(error.code == .cancelledError, "round \(round): \(error)")
                #expect(error.message.contains("download failed at step transfer: the download was cancelled"), "\(error)")
                #expect(fixture.temporaries == [], "round \(round)")
            }
            #expect(!fixture.manager.isModelDownloaded(fixture.remoteModel))
        }
    }
}
