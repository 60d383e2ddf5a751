import TasksCommon

/// An error as the records carry it: `code` is MediaPipe's status name ("INVALID_ARGUMENT"),
/// `message` is `TasksError.message` with a very long subject shortened.
package struct ErrorRecord: Codable, Equatable, Sendable {
    package let code: String
    package let message: String

    package init(_ error: TasksError) {
        code = error.code.statusName
        message = error.recordMessage
    }
}

extension TasksError {
    /// The longest subject shown whole, in characters; longer ones keep their start and end
    /// (a path near PATH_MAX would bury the reason).
    package static let maximumSubjectLength = 160

    /// `message` with the subject abbreviated, as records and error lines show it.
    package var recordMessage: String {
        guard let subject else { return message }
        let shortened = Subject(kind: subject.kind, name: Self.abbreviated(subject.name))
        // A reason that names its subject whole no longer does once the subject is shortened.
        return TasksError(code, reason, subject: shortened, condition: shortened == subject ? condition : nil).message
    }

    /// `text` when short; else its first and last characters around "…(N characters)…".
    package static func abbreviated(_ text: String) -> String {
        guard text.count > maximumSubjectLength else { return text }
        let kept = (maximumSubjectLength - 24) / 2
        return "\(text.prefix(kept))…(\(text.count) characters)…\(text.suffix(kept))"
    }
}
