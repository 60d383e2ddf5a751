import Glibc
import TasksCommon

extension AtomicWrite {
    /// Writes `files` (paths relative to the folder, "/" between components, and their bytes)
    /// as the new folder `target`: staged beside it, every file and folder flushed, renamed into
    /// place only if nothing is there, the parent flushed (`publishFolder`). All or nothing.
    /// - Throws: `TasksError` naming `target`: alreadyExists when something is there, else the
    ///   create or write error (the folder not writable, a full disk); nothing is left behind.
    package static func writeFolder(
        _ files: [(path: String, contents: some Collection<UInt8>)], as target: FileSystemPath, kind: FileKind
    ) throws(TasksError) {
        removeStaleStaging(of: target)
        let staging = stagingPath(for: target)
        do throws(Errno) {
            try FileTree.makeDirectory(staging)
            for file in files {
                var folder = staging
                let components = file.path.split(separator: "/").map { Array($0.utf8) }
                for component in components.dropLast() {
                    folder = folder.appending(component)
                    if !FileStatus.isDirectory(folder) { try FileTree.makeDirectory(folder) }
                }
                let written = try FileDescriptor.open(
                    folder.appending(components.last ?? []), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
                try written.write(file.contents)
            }
        } catch {
            FileTree.removeTree(staging)
            throw error.tasksError(path: target, kind: kind, .create)
        }
        try publishFolder(staging, as: target, kind: kind)
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
        try syncFolder(of: target, target: target, kind: kind)
    }

    /// Refuses, before any work, a `target` for `writeFolder` that cannot be a new folder: one
    /// that exists (a folder, a file or a symbolic link, dangling or not: nothing the user has is
    /// replaced), or whose parent is missing or does not let a folder be added.
    /// - Returns: `target` with its parent's links and `.`/`..` resolved (its last component
    ///   as given), to compare with other folders.
    /// - Throws: `TasksError` naming `target`: alreadyExists saying what is there, notFound,
    ///   permissionDenied.
    package static func checkNewFolder(_ target: FileSystemPath, kind: FileKind) throws(TasksError) -> FileSystemPath {
        if let status = try? FileStatus(of: target, followingLinks: false) {
            let what =
                status.type == .directory
                ? "The \(kind.noun) exists already"
                : "There is \(status.type.phrase) at the \(kind.noun)'s path"
            throw TasksError(
                .alreadyExistsError, "\(what); give the path of a new folder (nothing was written).",
                subject: .file(target.description))
        }
        let (folder, name) = split(target)
        let parent: FileSystemPath
        do throws(Errno) {
            parent = try FileTree.resolved(folder)
        } catch {
            guard error.meansNotFound else { throw error.tasksError(path: target, kind: kind, .create) }
            throw .notFound(
                "The \(kind.noun) cannot be created: its parent folder \(folder) does not exist.",
                subject: .file(target.description))
        }
        guard FileStatus.isDirectory(parent) else {
            throw .notFound(
                "The \(kind.noun) cannot be created: \(folder) is not a folder.", subject: .file(target.description))
        }
        guard FileTree.canAddEntries(to: parent) else {
            throw TasksError(
                .permissionDeniedError,
                "The \(kind.noun) cannot be created: its parent folder \(folder) is not writable.",
                subject: .file(target.description))
        }
        return parent.appending(name)
    }
}
