import Foundation
import TasksCommon

/// One image task as every front end runs it (the command line, the server, the reports): a
/// loaded model that turns an image file, or an encoded image, into the task's output.
///
/// Classify, label and embed are each one conformance (`ClassificationTask`, `LabelingTask`,
/// `EmbeddingTask`); the batch runner (`BatchRunner`), the records (`ImageOutcome`), the checks
/// and the served models (`ServedTask`) work with any of them. An instance owns one model and
/// serializes its calls; the batch runner and the server give each worker an instance of its own.
package protocol ImageTask: Sendable {
    /// What one image gives.
    associatedtype Output: TaskOutput

    /// Decodes the image file at `path` (a byte path, opened as given) and processes it.
    /// - Throws: `TasksError` naming the file for an unreadable or undecodable image, or the
    ///   model's error.
    func process(file path: FileSystemPath) throws(TasksError) -> Output

    /// Decodes an encoded JPEG, PNG or WebP image held in memory and processes it.
    /// - Throws: `TasksError` for undecodable data, or the model's error.
    func process(encoded data: Data) throws(TasksError) -> Output
}

/// What one image gives a task (classifications, labels, an embedding): the value, its JSON
/// record, and the check that it can be reported.
package protocol TaskOutput: Sendable {
    /// The JSON form, with MediaPipe's and ML Kit's field names.
    associatedtype Record: Codable & Sendable & Equatable

    /// The member of an image's record holding the output: "classifications", "labels" or "embeddings".
    static var recordKey: String { get }

    /// The output as JSON records it.
    var record: Record { get }

    /// The error for an output that cannot be reported as it is (a score or element that is not
    /// a finite number: JSON cannot write it, and it means the model's output is broken), or nil.
    var failure: TasksError? { get }
}

extension TasksError {
    /// `error` when it is a `TasksError` (the libraries throw only these), else an unknown
    /// error with its description, naming `subject`.
    package static func wrapping(_ error: any Error, subject: Subject? = nil) -> TasksError {
        error as? TasksError ?? TasksError(.unknownError, "\(error)", subject: subject)
    }
}
