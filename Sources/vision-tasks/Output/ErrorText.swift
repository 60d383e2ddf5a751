import TasksCommon

/// How the tool shows a `TasksError`: its subject shortened when very long (a path near
/// PATH_MAX would bury the reason); on a terminal, control characters escaped.
enum ErrorText {
    /// The longest subject shown whole, in characters; longer ones keep their start and end.
    static let maximumSubjectLength = 160

    /// The message for JSON: `TasksError.message` with the subject abbreviated.
    static func message(_ error: TasksError) -> String {
        guard let subject = error.subject else { return error.message }
        let shortened = TasksError.Subject(kind: subject.kind, name: abbreviated(subject.name))
        return TasksError(error.code, error.reason, subject: shortened).message
    }

    /// "CODE: message" for stderr and tables, control characters escaped. For an image's own
    /// line, which starts with its path, `imageFile` leaves that subject out instead of repeating it.
    static func describe(_ error: TasksError, imageFile: String? = nil) -> String {
        let text = imageFile != nil && error.subject == .file(imageFile ?? "") ? error.reason : message(error)
        return "\(error.code.statusName): \(TableText.escaped(text))"
    }

    /// `text` when short; else its first and last characters around "…(N characters)…".
    static func abbreviated(_ text: String) -> String {
        guard text.count > maximumSubjectLength else { return text }
        let kept = (maximumSubjectLength - 24) / 2
        return "\(text.prefix(kept))…(\(text.count) characters)…\(text.suffix(kept))"
    }
}
