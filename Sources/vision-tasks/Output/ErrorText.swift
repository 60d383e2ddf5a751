import ImageTasks
import TasksCommon

/// How the tool shows a `TasksError`: its subject shortened when very long (a path near
/// PATH_MAX would bury the reason); on a terminal, control characters escaped.
enum ErrorText {
    /// The message for JSON: `TasksError.message` with the subject abbreviated.
    static func message(_ error: TasksError) -> String { error.recordMessage }

    /// "CODE: message" for stderr and tables, control characters escaped. For an image's own
    /// line, which starts with its path, `imageFile` leaves that subject out instead of repeating it.
    static func describe(_ error: TasksError, imageFile: String? = nil) -> String {
        let text = imageFile != nil && error.subject == .file(imageFile ?? "") ? error.reason : message(error)
        return "\(error.code.statusName): \(TableText.escaped(text))"
    }
}
