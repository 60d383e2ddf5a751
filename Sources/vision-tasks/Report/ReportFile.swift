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
    /// or any other file. The path follows the one rule of output paths
    /// (`AtomicWrite.outputFile(at:kind:)`: a symbolic link is followed, only a regular file is
    /// written). The corresponding C function is `open` (`O_RDWR | O_CREAT`, mode 0644).
    /// - Throws: `TasksError` naming the file: `outputFile(at:kind:)`'s, `permissionDeniedError`,
    ///   `alreadyExistsError` for a file that is not a report, or `invalidArgumentError` with
    ///   the system's reason.
    init(path: String) throws(TasksError) {
        self.path = path
        let (location, _) = try AtomicWrite.outputFile(at: FileSystemPath(path), kind: Self.kind)
        file = try FileSystemPath(path).failing(as: Self.kind, .create) { () throws(Errno) in
            try FileDescriptor.open(location, O_RDWR | O_CREAT | O_NOFOLLOW)
        }
        var start = [UInt8](repeating: 0, count: 512)
        let count = (try? file.read(into: &start)) ?? 0
        if count > 0, !String(decoding: start.prefix(count), as: UTF8.self).contains(Self.generator) {
            throw TasksError(
                .alreadyExistsError,
                "The file exists and is not a vision-tasks report; it was not overwritten (give another path).",
                subject: .file(path))
        }
        try FileSystemPath(path).failing(as: Self.kind, .create) { () throws(Errno) in
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
