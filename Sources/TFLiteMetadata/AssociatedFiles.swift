import Archives
import Foundation
import TasksCommon

/// The files packed into a model: the zip the TFLite metadata writer appends after the
/// model's FlatBuffer (labels, score calibration, ...), read once and kept in memory.
///
/// Mirrors MediaPipe's `ExtractFilesfromZipFile` (`tasks/cc/metadata/utils/zip_utils.cc`):
/// files must be STORED (uncompressed), and bytes that do not open as a zip mean "no
/// associated files", which is only an error when a file is asked for.
package struct AssociatedFiles: Sendable {
    private let contents: ZipArchive.Contents

    /// Reads the zip appended to a model (or any zip) with libzip, from memory.
    ///
    /// Never throws: a failure is kept and reported by `contents(of:)` (and by
    /// `TFLiteModelFile.init` for models with metadata, as MediaPipe does).
    /// Every file is copied, so the result does not keep `modelBytes` alive.
    ///
    /// - Parameter modelBytes: the whole model file (the zip's offsets are absolute).
    package init(modelBytes: Data) {
        contents = ZipArchive.read(modelBytes)
    }

    /// The file names, in the zip's order; empty when there is no readable zip.
    package var names: [String] {
        if case .files(_, let names) = contents { return names }
        return []
    }

    /// Why the files cannot be read, when the zip opened but a file is compressed or
    /// unreadable (code `unknownError`, as MediaPipe); nil otherwise.
    package var readError: TasksError? {
        if case .unreadable(let error) = contents { return error }
        return nil
    }

    /// Whether a zip was found (even an empty or unreadable one).
    package var hasArchive: Bool {
        if case .noArchive = contents { return false }
        return true
    }

    /// The bytes of the file `name`.
    ///
    /// - Parameter name: the file's name in the zip, as in `AssociatedFileInfo.name`.
    /// - Returns: the file's bytes.
    /// - Throws: `TasksError`:
    ///   - `notFoundError` "No associated file with name: X (...)" (MediaPipe's text, then
    ///     the names present, or that the model has no zip of associated files, or it is
    ///     truncated or corrupt);
    ///   - `unknownError` "Expected uncompressed zip archive. ..." or "Unable to read the
    ///     file in zip archive. ..." when the zip holds a compressed or unreadable file.
    package func contents(of name: String) throws(TasksError) -> Data {
        switch contents {
        case .files(let files, let names):
            if let data = files[name] { return data }
            let present = names.isEmpty ? "the model's zip is empty" : "the model's zip holds: \(names.joined(separator: ", "))"
            throw .notFound("No associated file with name: \(name) (\(present))")
        case .noArchive(let reason):
            throw .notFound(
                "No associated file with name: \(name) (the model has no zip of associated files, or it is truncated or corrupt; \(reason))"
            )
        case .unreadable(let error):
            throw error
        }
    }
}
