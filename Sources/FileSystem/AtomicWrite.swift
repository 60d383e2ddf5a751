import Foundation
import Glibc
import TasksCommon

/// The one way a file or a folder the user keeps is written: staged beside its target, written
/// and flushed (`fsync`), renamed over the target, and the folder flushed, so that a reader, a
/// killed writer or a power cut leaves the old file or the whole new one, never a part.
///
/// Staging names are hidden, name their target and their writer's process
/// (`.TARGET.staging-PID-RANDOM`); what a killed writer left is removed by a later write of the
/// same target once `staleAge` old (`removeStaleStaging`).
package enum AtomicWrite {
    /// How much a write must survive.
    package enum Durability: Sendable {
        /// A power cut too: the file and the folder are flushed before the write returns.
        case synced
        /// A killed process only: for caches, whose entries are checked on reading and made
        /// again when torn, where a flush per entry would cost more than recomputing the few a
        /// power cut loses.
        case replaceable
    }

    /// How old a staging file must be to count as a killed writer's: a write takes seconds at
    /// most, so one this old is no live writer's.
    package static let staleAge: TimeInterval = 600

    /// Writes `bytes` as the file `target` (replacing what is there), mode 0644 less the umask.
    /// - Throws: `TasksError` naming `target`, a `kind`: the folder missing or not writable
    ///   (create), a full disk or an I/O error (write); the target is then as it was, and no
    ///   staging file is left.
    package static func write(
        _ bytes: some Collection<UInt8>, to target: FileSystemPath, kind: FileKind, durability: Durability = .synced
    ) throws(TasksError) {
        let staging = stagingPath(for: target)
        let file = try target.failing(as: kind, .create) { () throws(Errno) in
            try FileDescriptor.open(staging, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        }
        do throws(Errno) {
            try file.write(bytes)
            if durability == .synced { try file.sync() }
            try FileTree.rename(staging, to: target)
        } catch {
            FileTree.remove(staging)
            throw error.tasksError(path: target, kind: kind, .write)
        }
        if durability == .synced { try syncFolder(of: target, kind: kind) }
    }

    /// Puts the complete folder `staged` (made by `stagingPath(for:)` beside `target`) in place
    /// as `target`, which must not exist: everything in it is flushed, then it is renamed, then
    /// the parent flushed.
    /// - Throws: `TasksError` naming `target`: alreadyExists when something is there (nothing is
    ///   replaced), else the write error; `staged` is removed on failure.
    package static func publishFolder(_ staged: FileSystemPath, as target: FileSystemPath, kind: FileKind) throws(TasksError) {
        do throws(Errno) {
            try FileTree.syncTree(staged)
            try FileTree.renameWithoutReplacing(staged, to: target)
        } catch {
            FileTree.removeTree(staged)
            if error == .fileExists || error == .notEmpty {
                throw TasksError(
                    .alreadyExistsError, "The \(kind.noun) exists already; nothing was replaced.",
                    subject: .file(target.description))
            }
            throw error.tasksError(path: target, kind: kind, .write)
        }
        try syncFolder(of: target, kind: kind)
    }

    /// A new staging name beside `target`: hidden, unique to this process and call.
    package static func stagingPath(for target: FileSystemPath) -> FileSystemPath {
        let (folder, name) = split(target)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return folder.appending(Array(".".utf8) + name + Array(".staging-\(getpid())-\(random)".utf8))
    }

    /// Removes the staging files and folders of `target` that killed writers left, those at
    /// least `staleAge` old; younger ones may be a live writer's.
    /// - Returns: how many were removed.
    @discardableResult
    package static func removeStaleStaging(of target: FileSystemPath, now: Date = Date()) -> Int {
        let (folder, name) = split(target)
        let prefix = Array(".".utf8) + name + Array(".staging-".utf8)
        return removeStale(in: folder, where: { $0.starts(with: prefix) }, now: now)
    }

    /// Removes the hidden entries of `folder` at least `staleAge` old: for a folder only
    /// `AtomicWrite` fills (a cache's shard), where every hidden entry is a staging one, this
    /// version's or an earlier one's.
    /// - Returns: how many were removed.
    @discardableResult
    package static func removeStaleStaging(in folder: FileSystemPath, now: Date = Date()) -> Int {
        removeStale(in: folder, where: { $0.first == UInt8(ascii: ".") }, now: now)
    }

    private static func removeStale(in folder: FileSystemPath, where matches: ([UInt8]) -> Bool, now: Date) -> Int {
        let oldest = Int64((now.timeIntervalSince1970 - staleAge) * 1e9)
        var removed = 0
        for name in Directory.names(in: folder) where matches(name) {
            let path = folder.appending(name)
            guard let status = try? FileStatus(of: path, followingLinks: false), status.modifiedNanoseconds <= oldest else {
                continue
            }
            FileTree.removeTree(path)
            removed += 1
        }
        return removed
    }

    private static func syncFolder(of target: FileSystemPath, kind: FileKind) throws(TasksError) {
        let folder = split(target).folder
        try target.failing(as: kind, .write) { () throws(Errno) in try FileTree.sync(folder) }
    }

    /// The folder (`.` for a bare name) and the last component of `path`.
    private static func split(_ path: FileSystemPath) -> (folder: FileSystemPath, name: [UInt8]) {
        let slash = UInt8(ascii: "/")
        var bytes = path.bytes
        while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
        guard let last = bytes.lastIndex(of: slash) else { return (FileSystemPath("."), bytes) }
        let folder = last == 0 ? [slash] : Array(bytes[..<last])
        return (FileSystemPath(bytes: folder), Array(bytes[(last + 1)...]))
    }

}
