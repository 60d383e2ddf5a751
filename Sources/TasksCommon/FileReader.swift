import Foundation
import Glibc

/// What a file is read as: the noun messages use and the largest size accepted.
package struct FileKind: Sendable, Equatable {
    /// How messages call the file ("image file", "model file").
    package let noun: String
    /// The largest file accepted, in bytes; larger ones are refused before reading.
    package let maximumByteCount: Int

    package init(noun: String, maximumByteCount: Int) {
        self.noun = noun
        self.maximumByteCount = maximumByteCount
    }

    /// JPEG, PNG and WebP files: 256 MiB.
    package static let image = FileKind(noun: "image file", maximumByteCount: 256 << 20)
    /// .tflite models: 2 GiB, the largest FlatBuffer (its offsets are 32-bit signed).
    package static let model = FileKind(noun: "model file", maximumByteCount: 2 << 30)
    /// AutoML `manifest.json`: 1 MiB (it holds three short strings).
    package static let manifest = FileKind(noun: "AutoML manifest", maximumByteCount: 1 << 20)
    /// Label files such as `dict.txt`: 64 MiB (a million labels of 64 bytes).
    package static let labels = FileKind(noun: "labels file", maximumByteCount: 64 << 20)
    /// Score calibration files packed into a model: 64 MiB, as label files.
    package static let scoreCalibration = FileKind(noun: "score calibration file", maximumByteCount: 64 << 20)
    /// A file results are appended to (`--output`); never read whole, so no limit.
    package static let output = FileKind(noun: "output file", maximumByteCount: .max)
}

/// Reads whole files with POSIX calls for every kind of input (images, models, manifests,
/// labels, downloads), so that the rules and messages are the same everywhere:
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
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0 else { throw error(errno: errno, path: path, kind: kind) }
        try check(status, path: path, kind: kind)

        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw error(errno: errno, path: path, kind: kind) }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw error(errno: errno, path: path, kind: kind) }
        try check(status, path: path, kind: kind)
        return try read(descriptor, size: Int(status.st_size), path: path, kind: kind)
    }

    /// Reads the whole file at `path` (a `String` path); see `contents(of:as:)`.
    package static func contents(atPath path: String, as kind: FileKind) throws(TasksError) -> [UInt8] {
        try contents(of: FileSystemPath(path), as: kind)
    }

    /// Reads up to `size` bytes: a file that shrinks meanwhile gives fewer, one that grows its first `size`.
    private static func read(_ descriptor: Int32, size: Int, path: FileSystemPath, kind: FileKind) throws(TasksError) -> [UInt8] {
        var failure: TasksError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initializedCount in
            while initializedCount < size {
                let count = Glibc.read(descriptor, buffer.baseAddress! + initializedCount, size - initializedCount)
                if count > 0 {
                    initializedCount += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    failure = error(errno: errno, path: path, kind: kind)
                    break
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Refuses what is not a regular file of at most `kind.maximumByteCount` bytes.
    private static func check(_ status: stat, path: FileSystemPath, kind: FileKind) throws(TasksError) {
        let what: String
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            let size = Int(status.st_size)
            let limit = kind.maximumByteCount
            guard size <= limit else {
                let shown = limit % (1 << 30) == 0 ? "\(limit >> 30) GiB" : "\(limit >> 20) MiB"
                throw .invalidArgument(
                    "The \(kind.noun) is too large: \(size) bytes is more than the limit of \(limit) bytes "
                        + "(\(shown)).", subject: .file(path.description))
            }
            return
        case S_IFDIR: what = "a directory"
        case S_IFIFO: what = "a FIFO"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFSOCK: what = "a socket"
        default: what = "of file mode \(String(status.st_mode, radix: 8))"
        }
        throw .invalidArgument(
            "Expected a regular \(kind.noun), but this is \(what); it was not opened.",
            subject: .file(path.description))
    }

    /// The error for a failed `stat`, `open` or `read`.
    package static func error(errno code: Int32, path: FileSystemPath, kind: FileKind) -> TasksError {
        let subject = TasksError.Subject.file(path.description)
        switch code {
        case ENOENT, ENOTDIR:
            // MediaPipe's words for a model it cannot open (its ExternalFileHandler, every binding).
            let reason =
                kind == .model
                ? "\(TasksError.unableToOpenFile)\(path): the model file was not found (no such file or folder)."
                : "The \(kind.noun) was not found (no such file or folder)."
            return .notFound(reason, subject: subject)
        case EACCES, EPERM:
            return TasksError(.permissionDeniedError, "Permission denied: the \(kind.noun) may not be read.", subject: subject)
        default:
            return .invalidArgument(
                "Failed to read the \(kind.noun): \(String(cString: strerror(code))) (errno \(code)).",
                subject: subject)
        }
    }
}
