import FileSystem
import Foundation
import ImageTasks
import TasksCommon

/// Byte-identical photos among labelled examples, by the SHA-256 of their files (the feature
/// cache's key): copies that a split must keep on one side, and copies filed under two classes
/// (conflicting labels), which no model can get both right.
package struct PhotoDuplicates: Sendable {
    /// Each example's content digest, in order; nil for a file that cannot be read (it stays
    /// alone: its error is reported when its features are computed).
    package let digests: [String?]
    /// The groups of two or more identical photos (indexes into the examples), each in order,
    /// ordered by their first member.
    package let groups: [[Int]]
    /// The groups whose photos are filed under more than one class.
    package let conflicting: [[Int]]

    /// The SHA-256 of the photo at `path`, read as the features read it (`FileReader`: a FIFO or
    /// device named like a photo is refused, not opened, where a file handle waited on a FIFO
    /// for ever); nil when it cannot be read.
    static func digest(of path: FileSystemPath) -> String? {
        guard let bytes = try? FileReader.contents(of: path, as: .image) else { return nil }
        let hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// Hashes every example's file (each read once).
    package init(_ examples: [LabeledImageFolder.Example]) {
        digests = examples.map { Self.digest(of: $0.input.path) }
        var members: [String: [Int]] = [:]
        for (index, digest) in digests.enumerated() {
            if let digest { members[digest, default: []].append(index) }
        }
        groups = members.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
        conflicting = groups.filter { group in Set(group.map { examples[$0].label }).count > 1 }
    }

    /// The paths of each group, as `groups` orders them.
    package func paths(_ groups: [[Int]], in examples: [LabeledImageFolder.Example]) -> [[String]] {
        groups.map { $0.map { examples[$0].input.path.description } }
    }
}
