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

    /// Creates the file, or empties it when it exists.
    /// The corresponding C function is `open` (`O_WRONLY | O_CREAT | O_TRUNC`, mode 0644).
    /// - Throws: `TasksError` naming the file: `notFoundError` when its folder does not exist,
    ///   `permissionDeniedError`, or `invalidArgumentError` with the system's reason.
    init(path: String) throws(TasksError) {
        self.path = path
        descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.error(errno: errno, path: path) }
    }

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
