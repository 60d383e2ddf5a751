import Foundation
import TasksCommon

/// The bytes of a model and a name for it in messages (its path, or "the model buffer").
package struct ModelAsset: Sendable {
    /// The whole .tflite file.
    package let bytes: Data
    /// The file path, or "model asset buffer" when the bytes were given directly.
    package let source: String

    /// Reads the model named by `path`, or takes `buffer` when the path is empty.
    /// - Throws: `TasksError` invalidArgument when neither is set (MediaPipe's ExternalFile
    ///   message), when the path is a directory, or the file is empty; notFound when the file
    ///   does not exist; permissionDenied when it cannot be read.
    package init(path: String, buffer: Data?) throws(TasksError) {
        if path.isEmpty {
            guard let buffer, !buffer.isEmpty else {
                throw .invalidArgument("ExternalFile must specify at least one of 'file_content', 'file_name', "
                    + "'file_pointer_meta' or 'file_descriptor_meta'.")
            }
            self.bytes = buffer
            self.source = "model asset buffer"
            return
        }
        self.bytes = try ModelAsset.read(path)
        self.source = path
    }

    private static func read(_ path: String) throws(TasksError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound("Unable to open file at \(path): no such file.")
        }
        guard !isDirectory.boolValue else {
            throw .invalidArgument("Unable to open file at \(path): it is a directory, not a .tflite model.")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw TasksError(.permissionDeniedError, "Unable to read file at \(path): \(error.localizedDescription)")
        }
        guard !data.isEmpty else { throw .invalidArgument("The model file \(path) is empty (0 bytes).") }
        return data
    }
}
