import Glibc
import TasksCommon

/// What was being done to a file when a call failed: it decides the words of the error.
package enum FileOperation: Sendable {
    /// Opening or reading an existing file or folder.
    case read
    /// Creating a file (or its staging file) to write.
    case create
    /// Writing, syncing or putting in place a file being written.
    case write
}

extension Errno {
    /// The error a user reads for this errno on `path`, a `kind` being read, created or written.
    ///
    /// Reading: notFound when nothing is there (for a model, MediaPipe's "Unable to open file
    /// at PATH"), permissionDenied when reading is refused, else invalidArgument with the
    /// system's text and the errno. Creating: notFound when the folder does not exist,
    /// permissionDenied, else invalidArgument. Writing: unavailable (a full disk, an I/O error).
    /// The path is the subject of every one (`TasksError.Subject.file`).
    package func tasksError(path: FileSystemPath, kind: FileKind, _ operation: FileOperation = .read) -> TasksError {
        let subject = TasksError.Subject.file(path.description)
        if let problem = pathProblem {
            let words = operation == .read ? "Failed to read the \(kind.noun)" : "The \(kind.noun) cannot be created"
            return .invalidArgument("\(words): \(problem).", subject: subject)
        }
        switch operation {
        case .read: return readError(path: path, kind: kind, subject: subject)
        case .create:
            if meansNotFound {
                return .notFound("The \(kind.noun) cannot be created: its folder does not exist.", subject: subject)
            }
            if meansPermissionDenied {
                return TasksError(
                    .permissionDeniedError, "The \(kind.noun) cannot be created: permission denied.", subject: subject)
            }
            return .invalidArgument("The \(kind.noun) cannot be created: \(self) (errno \(code)).", subject: subject)
        case .write:
            return TasksError(
                .unavailableError, "The \(kind.noun) could not be written: \(self) (errno \(code)).", subject: subject)
        }
    }

    /// What is wrong with the path itself, in words, for the errnos that mean it whatever the
    /// operation; nil for the others.
    private var pathProblem: String? {
        switch code {
        case EISDIR: "this is a folder; give the path of a file"
        case ENAMETOOLONG: "a name in the path is longer than 255 bytes, or the whole path longer than 4,095"
        case ELOOP: "the path has too many symbolic links (a loop?)"
        default: nil
        }
    }

    private func readError(path: FileSystemPath, kind: FileKind, subject: TasksError.Subject) -> TasksError {
        if meansNotFound {
            // MediaPipe's words for a model it cannot open (its ExternalFileHandler, every binding).
            guard kind == .model else {
                return .notFound("The \(kind.noun) was not found (no such file or folder).", subject: subject)
            }
            return TasksError(
                .notFoundError, "Unable to open file at \(path): the model file was not found (no such file or folder).",
                subject: subject, condition: .modelFileNotFound)
        }
        if code == EACCES || code == EPERM {
            return TasksError(.permissionDeniedError, "Permission denied: the \(kind.noun) may not be read.", subject: subject)
        }
        return .invalidArgument("Failed to read the \(kind.noun): \(self) (errno \(code)).", subject: subject)
    }
}

extension FileSystemPath {
    /// Runs `body`, whose system calls act on this path, turning the errno it throws into the
    /// `TasksError` for a `kind` being read, created or written (`Errno.tasksError`).
    package func failing<Result>(
        as kind: FileKind, _ operation: FileOperation = .read, _ body: () throws(Errno) -> Result
    ) throws(TasksError) -> Result {
        do {
            return try body()
        } catch {
            throw error.tasksError(path: self, kind: kind, operation)
        }
    }
}
