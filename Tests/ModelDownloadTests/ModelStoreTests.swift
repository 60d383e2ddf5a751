import Foundation
import ModelCache
import ModelDownloads
import TestSupport
import Testing

/// `ModelStore.install` called concurrently under the model's lock, as by several
/// `vision-tasks models download` processes sharing one cache.
struct ModelStoreTests {
    /// Every round, eight installs of one model at once, each taking the lock, all succeed and
    /// leave `current` pointing at a version folder that exists (before installs took turns, one install's
    /// clean-up removed the folder another had just moved into place, so the model read as not
    /// downloaded although every install had succeeded).
    @Test func concurrentInstallsLeaveAnInstalledModel() throws {
        let cache = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = ModelStore(root: cache)
        let digest = String(repeating: "ab", count: 32)
        for round in 0..<20 {
            let staged = try (0..<8).map { _ in
                let staging = store.folder("m").appendingPathComponent("staged-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
                try Data("model".utf8).write(to: staging.appendingPathComponent(ModelStore.modelFileName))
                return staging
            }
            let failures = Locked(0)
            DispatchQueue.concurrentPerform(iterations: staged.count) { index in
                do {
                    let lock = try store.lock("m")
                    _ = try store.install(staged[index], name: "m", version: 1, sha256: digest, kind: .tflite, holding: lock)
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
            #expect(failures.withLock { $0 } == 0, "round \(round)")
            let installed = try #require(store.installed("m"), "round \(round): the model reads as not installed")
            #expect(FileManager.default.fileExists(atPath: installed.modelURL.path), "round \(round)")
        }
    }

    /// A delete while a download holds the model's lock waits for it, then removes the model
    /// (before, it removed the folder at once, staging and all, so the next download locked a new
    /// folder and ran beside the first: scripts/download-faults found a live download's staging
    /// folder in a folder whose lock was free).
    @Test func deleteWaitsForTheDownloadHoldingTheLock() async throws {
        let cache = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = ModelStore(root: cache)
        var download: ModelLock? = try store.lock("m")
        let staging = try store.makeStagingFolder("m", holding: try #require(download))
        let waited = Locked(false)
        let deleted = Locked<Bool?>(nil)
        let finished = DispatchSemaphore(value: 0)
        // A thread of its own: the delete blocks while it waits, which a busy cooperative pool
        // (two threads here) may not have room for.
        Thread {
            deleted.withLock { $0 = try? store.delete("m", whileBusy: { waited.withLock { $0 = true } }) }
            finished.signal()
        }.start()
        // Until the delete waits, or (the failure) has removed the folder under the lock.
        #expect(
            await Waiting.poll(safetyNet: 60) { waited.withLock { $0 } || !FileManager.default.fileExists(atPath: staging.path) })
        #expect(waited.withLock { $0 })
        #expect(FileManager.default.fileExists(atPath: staging.path), "deleted under the download's lock")
        download = nil
        #expect(await Waiting.wait(for: finished, safetyNet: 120))
        #expect(deleted.withLock { $0 } == true)
        #expect(!FileManager.default.fileExists(atPath: store.folder("m").path))
        #expect(try store.delete("m") == false)
    }
}
