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

    /// Writes `bytes` as the file `target`, replacing what is there. A replaced file keeps its
    /// permissions; a new one gets 0644 less the umask. A symbolic link at `target` is followed:
    /// the file it leads to is replaced and the link stays (`destination(of:kind:)`).
    /// - Throws: `TasksError` naming `target`, a `kind`: the errors of `destination(of:kind:)`
    ///   (a folder, a link to nothing, the folder missing or not writable), a full disk or an
    ///   I/O error (write); the target is then as it was, and no staging file is left.
    package static func write(
        _ bytes: some Collection<UInt8>, to target: FileSystemPath, kind: FileKind, durability: Durability = .synced
    ) throws(TasksError) {
        let (destination, permissions) = try self.destination(of: target, kind: kind)
        let staging = stagingPath(for: destination)
        let file = try target.failing(as: kind, .create) { () throws(Errno) in
            try FileDescriptor.open(staging, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        }
        do throws(Errno) {
            if let permissions { try file.setPermissions(permissions) }
            try file.write(bytes)
            if durability == .synced { try file.sync() }
            try FileTree.rename(staging, to: destination)
        } catch {
            FileTree.remove(staging)
            throw error.tasksError(path: target, kind: kind, .write)
        }
        if durability == .synced { try syncFolder(of: destination, target: target, kind: kind) }
    }

    /// Where a write of `target` lands, and the permissions of the file it replaces (nil for a
    /// new file): `outputFile(at:kind:)`, in a folder that lets a file be added.
    /// - Throws: `TasksError` naming `target`: those of `outputFile(at:kind:)`; permissionDenied
    ///   when the folder does not let a file be added (the new version is written beside the
    ///   old one, so a read-only folder cannot have a file replaced even when the file is writable).
    package static func destination(
        of target: FileSystemPath, kind: FileKind
    ) throws(TasksError) -> (path: FileSystemPath, permissions: mode_t?) {
        let (path, existing) = try outputFile(at: target, kind: kind)
        let folder = split(path).folder
        guard FileTree.canAddEntries(to: folder) else {
            throw TasksError(
                .permissionDeniedError,
                "The \(kind.noun) cannot be written: its folder \(folder) is not writable (a file is replaced by "
                    + "writing its new version beside it).", subject: .file(target.description))
        }
        return (path, existing?.permissions)
    }

    /// The one rule for an output file's path, whoever writes it (`write`, a report, an
    /// appended `--output`): a symbolic link is followed to the file it leads to, which is
    /// written while the link stays (as a shell's `>` writes through one); only a regular file
    /// is written over; a new file's folder must exist.
    /// - Returns: the path to write (`target`, or where its links lead) and the status of the
    ///   file there (nil when there is none yet).
    /// - Throws: `TasksError` naming `target`: invalidArgument for a folder or anything else
    ///   that is not a regular file; notFound for a link to nothing, or when the folder does
    ///   not exist; the mapped errno of a path that cannot be looked at (a name too long).
    package static func outputFile(
        at target: FileSystemPath, kind: FileKind
    ) throws(TasksError) -> (path: FileSystemPath, existing: FileStatus?) {
        var path = target
        var status: FileStatus?
        do throws(Errno) {
            status = try FileStatus(of: target, followingLinks: false)
            if status?.type == .symbolicLink {
                path = try FileTree.resolved(target)
                status = try FileStatus(of: path, followingLinks: false)
            }
        } catch {
            guard error.meansNotFound else { throw error.tasksError(path: target, kind: kind, .create) }
            if status?.type == .symbolicLink {
                throw .notFound(
                    "The \(kind.noun) path is a symbolic link to nothing (what it names does not exist); give the file's own path.",
                    subject: .file(target.description))
            }
            status = nil
        }
        switch status?.type {
        case nil:
            let folder = split(path).folder
            guard FileStatus.isDirectory(folder) else {
                throw .notFound(
                    "The \(kind.noun) cannot be written: its folder \(folder) does not exist.", subject: .file(target.description)
                )
            }
        case .regular?: break
        case .directory?:
            throw .invalidArgument(
                "The \(kind.noun) cannot be written: this is a folder; give the path of the file to write.",
                subject: .file(target.description))
        case let type?:
            throw .invalidArgument(
                "The \(kind.noun) cannot be written: this is \(type.phrase); only a regular file is written.",
                subject: .file(target.description))
        }
        return (path, status)
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
        // A link's staging files are beside the file it leads to (`destination(of:kind:)`).
        let (folder, name) = split((try? FileTree.resolved(target)) ?? target)
        // Versions before this layer staged an export as `.NAME.partial-UUID`.
        let prefixes = [".staging-", ".partial-"].map { Array(".".utf8) + name + Array($0.utf8) }
        return removeStale(in: folder, where: { entry in prefixes.contains { entry.starts(with: $0) } }, now: now)
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

    /// Flushes the folder of `written`, errors naming `target` (the path as the caller gave it).
    static func syncFolder(of written: FileSystemPath, target: FileSystemPath, kind: FileKind) throws(TasksError) {
        let folder = split(written).folder
        try target.failing(as: kind, .write) { () throws(Errno) in try FileTree.sync(folder) }
    }

    /// The folder (`.` for a bare name) and the last component of `path`.
    static func split(_ path: FileSystemPath) -> (folder: FileSystemPath, name: [UInt8]) {
        let slash = UInt8(ascii: "/")
        var bytes = path.bytes
        while bytes.count > 1, bytes.last == slash { bytes.removeLast() }
        guard let last = bytes.lastIndex(of: slash) else { return (FileSystemPath("."), bytes) }
        let folder = last == 0 ? [slash] : Array(bytes[..<last])
        return (FileSystemPath(bytes: folder), Array(bytes[(last + 1)...]))
    }

}
