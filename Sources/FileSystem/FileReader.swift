import Glibc
import TasksCommon

/// Reads whole files for every kind of input (images, models, manifests, labels, downloads),
/// so that the rules and messages are the same everywhere:
///
/// - only regular files are read: the path is checked with `stat` first (following symbolic
///   links), and a directory, FIFO, device or socket is refused without being opened, so
///   nothing blocks; the message says what it is;
/// - the size limit of the file's `FileKind` is checked before reading;
/// - the file is then opened non-blocking and checked again with `fstat` (it may have been
///   replaced in between), and at most the size `fstat` reports is read, into one buffer.
///
/// Errors have the path as their subject (`TasksError.Subject.file`).
package enum FileReader {
    /// Reads the whole file at `path`.
    /// - Throws: `TasksError` invalidArgument for an empty path; with the path as subject:
    ///   notFound when nothing is there
    ///   (ENOENT, ENOTDIR); permissionDenied when reading is refused (EACCES, EPERM);
    ///   invalidArgument for a directory, what is not a regular file, a file over the kind's
    ///   limit, and any other system error (with its description and errno).
    package static func contents(of path: FileSystemPath, as kind: FileKind) throws(TasksError) -> [UInt8] {
        guard !path.bytes.isEmpty else { throw .invalidArgument("The \(kind.noun) path is empty.") }
        try check(path.failing(as: kind) { () throws(Errno) in try FileStatus(of: path) }, path: path, kind: kind)
        let file = try path.failing(as: kind) { () throws(Errno) in try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) }
        let status = try path.failing(as: kind) { () throws(Errno) in try file.status() }
        try check(status, path: path, kind: kind)
        return try path.failing(as: kind) { () throws(Errno) in try read(file, size: status.size) }
    }

    /// Reads the whole file at `path` (a `String` path); see `contents(of:as:)`.
    package static func contents(atPath path: String, as kind: FileKind) throws(TasksError) -> [UInt8] {
        try contents(of: FileSystemPath(path), as: kind)
    }

    /// Reads up to `size` bytes: a file that shrinks meanwhile gives fewer, one that grows its first `size`.
    private static func read(_ file: FileDescriptor, size: Int) throws(Errno) -> [UInt8] {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
            while initializedCount < size {
                do throws(Errno) {
                    let count = try file.read(
                        into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[initializedCount...])))
                    if count == 0 { break }
                    initializedCount += count
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Refuses what is not a regular file of at most `kind.maximumByteCount` bytes.
    private static func check(_ status: FileStatus, path: FileSystemPath, kind: FileKind) throws(TasksError) {
        guard status.type == .regular else {
            throw .invalidArgument(
                "Expected a regular \(kind.noun), but this is \(status.type.phrase); it was not opened.",
                subject: .file(path.description))
        }
        let limit = kind.maximumByteCount
        guard status.size <= limit else {
            let shown = limit % (1 << 30) == 0 ? "\(limit >> 30) GiB" : "\(limit >> 20) MiB"
            throw .invalidArgument(
                "The \(kind.noun) is too large: \(status.size) bytes is more than the limit of \(limit) bytes "
                    + "(\(shown)).", subject: .file(path.description))
        }
    }
}
