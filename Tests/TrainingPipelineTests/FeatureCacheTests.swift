import FileSystem
import Foundation
import TasksCommon
import TestSupport
import Testing
import TrainingPipeline

/// The feature cache's entries and what a killed run leaves in it.
@Suite struct FeatureCacheTests {
    /// A killed run's staging file (this version's, or an earlier one's `.DIGEST.UUID`) is
    /// removed once it is `AtomicWrite.staleAge` old; a younger one may be
    /// another run's write in progress and stays, and so do the entries.
    @Test func interruptedWritesAreRemovedWhenStale() throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = FeatureCache(root: root, identity: "base", dimension: 2)
        cache.store([1, 2], digest: "ab12")
        let shard = cache.folder.appendingPathComponent("ab")
        let staged = AtomicWrite.stagingPath(for: FileSystemPath(shard.appendingPathComponent("ab34.f32").path))
        let old = URL(fileURLWithPath: staged.description)
        let earlier = shard.appendingPathComponent(".ab78.11111111-1111-1111-1111-111111111111")
        let fresh = shard.appendingPathComponent(".ab56.22222222-2222-2222-2222-222222222222")
        for (file, byte) in [(old, 1), (earlier, 3), (fresh, 2)] { try Data([UInt8(byte)]).write(to: file) }
        let now = Date()
        for file in [old, earlier] {
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-AtomicWrite.staleAge - 1)], ofItemAtPath: file.path)
        }

        #expect(cache.removeInterruptedWrites(now: now) == 2)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(!FileManager.default.fileExists(atPath: earlier.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        #expect(cache.features(digest: "ab12") == [1, 2])
    }
}
