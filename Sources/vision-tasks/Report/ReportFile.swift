import Glibc
import TasksCommon

/// The report's file, written block by block with `write(2)`: each block is in the file as
/// soon as it is written (no buffer to lose when the run is cut short).
///
/// A write that fails (a full disk) is reported once on stderr; later writes are skipped and
/// `failed` is true, so the command can end with exit status 1.
final class ReportFile {
    /// The path as given.
    let path: String
    private let descriptor: Int32
    /// Whether a write failed.
    private(set) var failed = false

    /// Creates the file; an existing file is replaced only when it is an earlier report (its
    /// start names vision-tasks as the generator), so that a wrong path cannot destroy a photo
    /// or any other file. A symbolic link is not followed.
    /// The corresponding C function is `open` (`O_WRONLY | O_CREAT | O_NOFOLLOW`, mode 0644).
    /// - Throws: `TasksError` naming the file: `notFoundError` when its folder does not exist,
    ///   `permissionDeniedError`, `alreadyExistsError` for a file that is not a report (or a
    ///   link), or `invalidArgumentError` with the system's reason.
    init(path: String) throws(TasksError) {
        self.path = path
        descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw TasksError(
                    .alreadyExistsError, "The report path is a symbolic link; it was not followed (give the file's own path).",
                    subject: .file(path))
            }
            throw Self.error(errno: errno, path: path)
        }
        var start = [UInt8](repeating: 0, count: 512)
        let count = Glibc.read(descriptor, &start, start.count)
        if count > 0, !String(decoding: start.prefix(count), as: UTF8.self).contains(Self.generator) {
            close(descriptor)
            throw TasksError(
                .alreadyExistsError,
                "The file exists and is not a vision-tasks report; it was not overwritten (give another path).",
                subject: .file(path))
        }
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            let code = errno
            close(descriptor)
            throw Self.error(errno: code, path: path)
        }
    }

    /// The mark every report carries in its head (`ReportPage.start`).
    static let generator = "<meta name=\"generator\" content=\"vision-tasks\">"

    deinit { close(descriptor) }

    /// Appends `text` to the file (all of it: partial writes are continued).
    /// The corresponding C function is `write`.
    func write(_ text: String) {
        guard !failed else { return }
        var bytes = Array(text.utf8)
        let code: Int32? = bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let code {
            failed = true
            StandardStreams.reportError(
                TasksError(
                    .unavailableError,
                    "The report could not be written: \(String(cString: strerror(code))) "
                        + "(errno \(code)); it stops here.", subject: .file(path)))
        }
    }

    /// The error for a failed `open`.
    private static func error(errno code: Int32, path: String) -> TasksError {
        let subject = TasksError.Subject.file(path)
        switch code {
        case ENOENT, ENOTDIR: return .notFound("The report cannot be created: its folder does not exist.", subject: subject)
        case EACCES, EPERM, EROFS:
            return TasksError(.permissionDeniedError, "The report cannot be created: permission denied.", subject: subject)
        default:
            return .invalidArgument(
                "The report cannot be created: \(String(cString: strerror(code))) (errno \(code)).", subject: subject)
        }
    }
}
