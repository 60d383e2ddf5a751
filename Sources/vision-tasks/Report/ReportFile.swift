import FileSystem
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
    private let file: FileDescriptor
    /// Whether a write failed.
    private(set) var failed = false

    private static let kind = FileKind(noun: "report", maximumByteCount: .max)

    /// Creates the file; an existing file is replaced only when it is an earlier report (its
    /// start names vision-tasks as the generator), so that a wrong path cannot destroy a photo
    /// or any other file. A symbolic link is not followed.
    /// The corresponding C function is `open` (`O_RDWR | O_CREAT | O_NOFOLLOW`, mode 0644).
    /// - Throws: `TasksError` naming the file: `notFoundError` when its folder does not exist,
    ///   `permissionDeniedError`, `alreadyExistsError` for a file that is not a report (or a
    ///   link), or `invalidArgumentError` with the system's reason.
    init(path: String) throws(TasksError) {
        self.path = path
        let location = FileSystemPath(path)
        do throws(Errno) {
            file = try FileDescriptor.open(location, O_RDWR | O_CREAT | O_NOFOLLOW)
        } catch {
            guard error != .tooManyLinks else {
                throw TasksError(
                    .alreadyExistsError, "The report path is a symbolic link; it was not followed (give the file's own path).",
                    subject: .file(path))
            }
            throw error.tasksError(path: location, kind: Self.kind, .create)
        }
        var start = [UInt8](repeating: 0, count: 512)
        let count = (try? file.read(into: &start)) ?? 0
        if count > 0, !String(decoding: start.prefix(count), as: UTF8.self).contains(Self.generator) {
            throw TasksError(
                .alreadyExistsError,
                "The file exists and is not a vision-tasks report; it was not overwritten (give another path).",
                subject: .file(path))
        }
        try location.failing(as: Self.kind, .create) { () throws(Errno) in
            try file.truncate(to: 0)
            try file.seek(to: 0)
        }
    }

    /// The mark every report carries in its head (`ReportPage.start`).
    static let generator = "<meta name=\"generator\" content=\"vision-tasks\">"

    /// Appends `text` to the file (all of it: partial writes are continued).
    /// The corresponding C function is `write`.
    func write(_ text: String) {
        guard !failed else { return }
        do throws(Errno) {
            try file.write(text.utf8)
        } catch {
            failed = true
            StandardStreams.reportError(
                TasksError(
                    .unavailableError,
                    "The report could not be written: \(error) (errno \(error.code)); it stops here.", subject: .file(path)))
        }
    }
}
