import FileSystem
import Foundation
import ModelCache
import TasksCommon

/// Features already computed, by base (`FeatureExtractor.identity`) and photo content
/// (SHA-256 of the file's bytes): a second `train` with other options, or on a folder that
/// grew, computes only what is new. One file per photo: its features as little-endian float32,
/// then the FNV-1a 64-bit hash of those bytes (little-endian).
///
/// An entry that is missing, of the wrong size, whose hash does not match (a disk or a crash
/// that zeroed or changed it) or that holds a value that is not a finite number is a miss: the
/// features are computed again and the entry replaced. Writes are `AtomicWrite`'s, so a killed
/// run leaves no torn entry; the staging files a killed run leaves are removed by the next run
/// once they are `AtomicWrite.staleAge` old.
package struct FeatureCache: Sendable {
    /// The folder of one base's features.
    package let folder: URL
    /// The features per photo.
    package let dimension: Int

    /// `root/identity`.
    package init(root: URL, identity: String, dimension: Int) {
        folder = root.appendingPathComponent(identity, isDirectory: true)
        self.dimension = dimension
    }

    /// Removes the staging files of writes that never finished (a run killed while writing),
    /// those at least `AtomicWrite.staleAge` old; younger ones may be another run's.
    /// - Returns: how many were removed.
    @discardableResult
    package func removeInterruptedWrites(now: Date = Date()) -> Int {
        let shards = Directory.names(in: FileSystemPath(folder.path))
        return shards.reduce(0) { removed, shard in
            removed + AtomicWrite.removeStaleStaging(in: FileSystemPath(folder.path).appending(shard), now: now)
        }
    }

    /// The default root: `$XDG_CACHE_HOME/swift-vision-tasks/features`, else
    /// `$HOME/.cache/swift-vision-tasks/features`.
    package static func defaultRoot(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        PackageCacheDirectory.url(environment).appendingPathComponent("features", isDirectory: true)
    }

    /// The features of the photo whose content has `digest`, or nil.
    package func features(digest: String) -> [Float]? {
        guard let data = try? Data(contentsOf: file(digest)), data.count == dimension * 4 + 8 else { return nil }
        let values = data.prefix(dimension * 4)
        let stored = data.suffix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard Self.hash(values) == stored else { return nil }
        let features = values.withUnsafeBytes { raw in
            (0..<dimension).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
        return features.allSatisfy(\.isFinite) ? features : nil
    }

    /// Keeps `features` for `digest`; a failure to write only means they are computed again next time.
    package func store(_ features: [Float], digest: String) {
        let target = file(digest)
        var data = Data(capacity: features.count * 4 + 8)
        for value in features { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        withUnsafeBytes(of: Self.hash(data).littleEndian) { data.append(contentsOf: $0) }
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            return
        }
        // The rename replaces an entry another worker or run wrote meanwhile, atomically; a torn
        // entry after a power cut fails its hash and is computed again, so no flush per entry.
        try? AtomicWrite.write(data, to: FileSystemPath(target.path), kind: Self.entryKind, durability: .replaceable)
    }

    private static let entryKind = FileKind(noun: "feature cache entry", maximumByteCount: .max)

    /// FNV-1a, 64 bits: cheap, and any zeroed or changed byte changes it.
    static func hash(_ bytes: Data) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    private func file(_ digest: String) -> URL {
        folder.appendingPathComponent(String(digest.prefix(2)), isDirectory: true).appendingPathComponent("\(digest).f32")
    }
}
