import ClassifierTraining
import Foundation
import TestSupport
import Testing

/// The feature cache's entries and what a killed run leaves in it.
@Suite struct FeatureCacheTests {
    /// A killed run's temporary file is removed once it is `staleAge` old; a younger one may be
    /// another run's write in progress and stays, and so do the entries.
    @Test func interruptedWritesAreRemovedWhenStale() throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = FeatureCache(root: root, identity: "base", dimension: 2)
        cache.store([1, 2], digest: "ab12")
        let shard = cache.folder.appendingPathComponent("ab")
        let old = shard.appendingPathComponent(".ab34.11111111-1111-1111-1111-111111111111")
        let fresh = shard.appendingPathComponent(".ab56.22222222-2222-2222-2222-222222222222")
        try Data([1]).write(to: old)
        try Data([2]).write(to: fresh)
        let now = Date()
        try FileManager.default.setAttributes(
            [.modificationDate: now.addingTimeInterval(-FeatureCache.staleAge - 1)], ofItemAtPath: old.path)

        #expect(cache.removeInterruptedWrites(now: now) == 1)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(cache.features(digest: "ab12") == [1, 2])
    }
}
