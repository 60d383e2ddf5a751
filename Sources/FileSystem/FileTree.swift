import CFileSystem
import Foundation
import Glibc
import TasksCommon

/// The calls that change the tree of names: renames, removals, folders, and the syncs that
/// make them last. Each acts on paths; `AtomicWrite` composes them.
package enum FileTree {
    /// Renames `source` to `target`, replacing a file (or an empty folder) there.
    /// The corresponding C function is `rename`.
    package static func rename(_ source: FileSystemPath, to target: FileSystemPath) throws(Errno) {
        let result = source.withCString { from in target.withCString { Glibc.rename(from, $0) } }
        guard result == 0 else { throw .current }
    }

    /// Renames `source` to `target` only if nothing is at `target` (EEXIST otherwise), atomically.
    /// The corresponding C function is `renameat2` with `RENAME_NOREPLACE`.
    package static func renameWithoutReplacing(_ source: FileSystemPath, to target: FileSystemPath) throws(Errno) {
        let result = source.withCString { from in target.withCString { vt_rename_noreplace(from, $0) } }
        guard result != 0 else { return }
        // A file system without the flag (EINVAL): check, then rename; the window between is small.
        guard errno == EINVAL else { throw .current }
        guard (try? FileStatus(of: target, followingLinks: false)) == nil else { throw .fileExists }
        try rename(source, to: target)
    }

    /// Creates the folder `path` (its parent must exist). The corresponding C function is `mkdir`.
    package static func makeDirectory(_ path: FileSystemPath, mode: mode_t = 0o755) throws(Errno) {
        guard path.withCString({ mkdir($0, mode) }) == 0 else { throw .current }
    }

    /// Removes the file or empty folder at `path`; false when it could not (ENOENT included).
    /// The corresponding C functions are `unlink` and `rmdir`.
    @discardableResult
    package static func remove(_ path: FileSystemPath) -> Bool {
        path.withCString { unlink($0) == 0 || rmdir($0) == 0 }
    }

    /// Removes `path` and everything under it, not following links; best effort.
    package static func removeTree(_ path: FileSystemPath) {
        if (try? FileStatus(of: path, followingLinks: false))?.type == .directory {
            for name in Directory.names(in: path) { removeTree(path.appending(name)) }
        }
        remove(path)
    }

    /// The absolute path `path` leads to, every symbolic link and `.`/`..` resolved; it must
    /// exist (ENOENT otherwise, a dangling link included). The corresponding C function is `realpath`.
    package static func resolved(_ path: FileSystemPath) throws(Errno) -> FileSystemPath {
        guard let resolved = path.withCString({ realpath($0, nil) }) else { throw .current }
        defer { free(resolved) }
        return FileSystemPath(bytes: Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
    }

    /// Whether this process may create and remove entries in the folder `path` (write and
    /// search permission). The corresponding C function is `access` (`W_OK | X_OK`).
    package static func canAddEntries(to path: FileSystemPath) -> Bool {
        path.withCString { access($0, W_OK | X_OK) } == 0
    }

    /// Flushes `path` (a file or a folder: its entries) to the disk, so that a rename into it or
    /// a file written in it survives a power cut. The corresponding C function is `fsync`.
    package static func sync(_ path: FileSystemPath) throws(Errno) {
        try FileDescriptor.open(path, O_RDONLY).sync()
    }

    /// Flushes every file and folder under `root` (and `root`), not following links: what a
    /// folder written by others (an unpacked bundle) must be before it is renamed into place.
    package static func syncTree(_ root: FileSystemPath) throws(Errno) {
        let status = try FileStatus(of: root, followingLinks: false)
        if status.type == .directory {
            for name in try Directory(opening: root).entries().map(\.name) { try syncTree(root.appending(name)) }
        }
        guard status.type == .regular || status.type == .directory else { return }
        try sync(root)
    }
}
