import Foundation
import Glibc
import TasksCommon

/// Reads image files with POSIX calls, so that what is not a regular file is refused before
/// it is opened and every failure is mapped to a `TasksError` in one place (`error(errno:path:)`).
enum ImageFile {
    /// Reads the whole file at `path`.
    ///
    /// The path is checked with `stat` first (following symbolic links): a directory, FIFO,
    /// device or socket is refused without being opened, so nothing blocks. The file is then
    /// opened non-blocking and checked again with `fstat` (it may have been replaced in
    /// between), and at most the size `fstat` reports is read, into one buffer.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - maxByteCount: The largest file accepted, in bytes.
    /// - Returns: The file's bytes.
    /// - Throws: `TasksError` as `error(errno:path:)` for `stat`, `open` and `read`;
    ///   `invalidArgumentError` "Expected an image file, but '<path>' is a directory.",
    ///   "'<path>' is not a regular file (<kind>)." and "Image file '<path>' is too large:
    ///   <size> bytes is more than the limit of <limit> bytes."
    static func contents(atPath path: String, maxByteCount: Int) throws(TasksError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw error(errno: errno, path: path) }
        try check(status, path: path, maxByteCount: maxByteCount)

        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw error(errno: errno, path: path) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw error(errno: errno, path: path) }
        try check(status, path: path, maxByteCount: maxByteCount)

        let size = Int(status.st_size)
        var failure: TasksError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
            // A file that shrinks meanwhile gives fewer bytes; one that grows, its first `size`.
            while initializedCount < size {
                let count = read(descriptor, buffer.baseAddress! + initializedCount, size - initializedCount)
                if count > 0 {
                    initializedCount += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    failure = error(errno: errno, path: path)
                    break
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Refuses what is not a regular file of at most `maxByteCount` bytes.
    private static func check(_ status: stat, path: String, maxByteCount: Int) throws(TasksError) {
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            let size = Int(status.st_size)
            guard size <= maxByteCount else {
                throw .invalidArgument(
                    "Image file '\(path)' is too large: \(size) bytes is more than the limit of \(maxByteCount) bytes (\(maxByteCount >> 20) MiB).")
            }
            return
        case S_IFDIR: throw .invalidArgument("Expected an image file, but '\(path)' is a directory.")
        case S_IFIFO: kind = "a FIFO"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "mode \(String(status.st_mode, radix: 8))"
        }
        throw .invalidArgument("Failed to read image file: '\(path)' is not a regular file (it is \(kind)).")
    }

    /// The error for a failed `stat`, `open` or `read` of `path`: `notFoundError` for a missing
    /// file or folder (ENOENT, ENOTDIR), `permissionDeniedError` when access is refused (EACCES,
    /// EPERM), else `invalidArgumentError` with the system's description.
    static func error(errno code: Int32, path: String) -> TasksError {
        switch code {
        case ENOENT, ENOTDIR:
            return .notFound("Image file not found: '\(path)'.")
        case EACCES, EPERM:
            return TasksError(.permissionDeniedError, "Failed to read image file '\(path)': permission denied.")
        default:
            return .invalidArgument("Failed to read image file '\(path)': \(String(cString: strerror(code))) (errno \(code)).")
        }
    }
}
