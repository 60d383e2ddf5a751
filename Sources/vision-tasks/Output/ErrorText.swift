import TasksCommon

/// How the tool shows a `TasksError`: its subject shortened when very long (a path near
/// PATH_MAX would bury the reason); on a terminal, control characters escaped.
enum ErrorText {
    /// The longest subject shown whole, in characters; longer ones keep their start and end.
    static let maximumSubjectLength = 160

    /// The message for JSON: "subject: reason" (option subjects are not repeated, as in
    /// `TasksError.message`), the subject abbreviated.
    static func message(_ error: TasksError) -> String {
        guard let subject = error.subject, subject.kind != .option else { return error.reason }
        return "\(abbreviated(subject.name)): \(error.reason)"
    }

    /// "CODE: message" for stderr and tables, control characters escaped.
    static func describe(_ error: TasksError) -> String {
        "\(error.code.statusName): \(TableText.escaped(message(error)))"
    }

    /// `text` when short; else its first and last characters around "…(N characters)…".
    static func abbreviated(_ text: String) -> String {
        guard text.count > maximumSubjectLength else { return text }
        let kept = (maximumSubjectLength - 24) / 2
        return "\(text.prefix(kept))…(\(text.count) characters)…\(text.suffix(kept))"
    }
}
