import Foundation
import ModelDownloads
import TestSupport
import Testing

/// `ModelStore.install` called concurrently, as by several `vision-tasks models download`
/// processes sharing one cache.
struct ModelStoreTests {
    /// Every round, eight installs of one model at once all succeed and leave `current`
    /// pointing at a version folder that exists (before installs took turns, one install's
    /// clean-up removed the folder another had just moved into place, so the model read as not
    /// downloaded although every install had succeeded).
    @Test func concurrentInstallsLeaveAnInstalledModel() throws {
        let cache = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let store = ModelStore(root: cache)
        let digest = String(repeating: "ab", count: 32)
        for round in 0..<20 {
            let staged = try (0..<8).map { _ in
                let staging = try store.makeStagingFolder("m")
                try Data("model".utf8).write(to: staging.appendingPathComponent(ModelStore.modelFileName))
                return staging
            }
            let failures = Locked(0)
            DispatchQueue.concurrentPerform(iterations: staged.count) { index in
                do {
                    _ = try store.install(staged[index], name: "m", version: 1, sha256: digest, kind: .tflite)
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
            #expect(failures.withLock { $0 } == 0, "round \(round)")
            let installed = try #require(store.installed("m"), "round \(round): the model reads as not installed")
            #expect(FileManager.default.fileExists(atPath: installed.modelURL.path), "round \(round)")
        }
    }
}
