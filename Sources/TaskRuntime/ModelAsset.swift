import FileSystem
import Foundation
import TasksCommon

/// The bytes of a model and the subject its errors name: the file, or nothing for bytes given
/// in memory (MediaPipe's messages then stand alone).
package struct ModelAsset: Sendable {
    /// The whole .tflite file.
    package let bytes: Data
    /// The model file, for errors; nil for `BaseOptions.modelAssetBuffer`.
    package let subject: TasksError.Subject?

    /// Reads the model named by `path`, or takes `buffer` when the path is empty.
    /// - Throws: `TasksError` invalidArgument when neither is set (MediaPipe's ExternalFile
    ///   message) or the file is empty; and as `FileReader.contents(of:as:)` with
    ///   `FileKind.model` (a 2 GiB limit) for a missing, unreadable or irregular file.
    package init(path: String, buffer: Data?) throws(TasksError) {
        guard !path.isEmpty else {
            guard let buffer, !buffer.isEmpty else {
                throw .invalidArgument(
                    "ExternalFile must specify at least one of 'file_content', 'file_name', "
                        + "'file_pointer_meta' or 'file_descriptor_meta'.")
            }
            self.bytes = buffer
            self.subject = nil
            return
        }
        let subject = TasksError.Subject.file(path)
        let bytes = try FileReader.contents(atPath: path, as: .model)
        guard !bytes.isEmpty else { throw .invalidArgument("The model file is empty (0 bytes).", subject: subject) }
        self.bytes = Data(bytes)
        self.subject = subject
    }
}
