import Foundation
import Glibc
import TasksCommon

/// Features already computed, by base (`FeatureExtractor.identity`) and photo content
/// (SHA-256 of the file's bytes): a second `train` with other options, or on a folder that
/// grew, computes only what is new. One file per photo, its features as little-endian float32.
///
/// A file that is missing, short or unreadable is a miss (the features are computed again);
/// writes go to a temporary name first and are renamed, so a killed run leaves no torn entry.
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

    /// The default root: `$XDG_CACHE_HOME/swift-vision-tasks/features`, else
    /// `$HOME/.cache/swift-vision-tasks/features`.
    package static func defaultRoot(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true).appendingPathComponent(".cache")
        return base.appendingPathComponent("swift-vision-tasks/features", isDirectory: true)
    }

    /// The features of the photo whose content has `digest`, or nil.
    package func features(digest: String) -> [Float]? {
        guard let data = try? Data(contentsOf: file(digest)), data.count == dimension * 4 else { return nil }
        return data.withUnsafeBytes { raw in
            (0..<dimension).map {
                Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)))
            }
        }
    }

    /// Keeps `features` for `digest`; a failure to write only means they are computed again next time.
    package func store(_ features: [Float], digest: String) {
        let target = file(digest)
        var data = Data(capacity: features.count * 4)
        for value in features { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(digest).\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: temporary)
        } catch {
            return
        }
        // rename(2) replaces an entry another worker or run wrote meanwhile, atomically.
        if rename(temporary.path, target.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    }

    private func file(_ digest: String) -> URL {
        folder.appendingPathComponent(String(digest.prefix(2)), isDirectory: true).appendingPathComponent("\(digest).f32")
    }
}
