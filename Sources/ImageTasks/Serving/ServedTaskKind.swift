import FileSystem
import Foundation
import TFLiteMetadata
import TasksCommon

/// Which task a served `--model` runs: `serve --task`, or, with `auto`, what its metadata says.
package enum ServedTaskKind: String, Sendable, CaseIterable {
    /// Embed when the model's metadata is named "ImageEmbedder" (as MediaPipe's embedder models
    /// are), else classify.
    case auto
    case classify
    case embed

    /// The task for the model at `path`: this one, or for `auto` the one its metadata names.
    /// - Throws: `TasksError` naming the file when `auto` cannot read it as a TFLite model.
    package func resolved(forModelAt path: String) throws(TasksError) -> ServedTaskKind {
        guard self == .auto else { return self }
        let bytes = try FileReader.contents(atPath: path, as: .model)
        do throws(TasksError) {
            let name = try TFLiteModelFile(bytes: Data(bytes)).metadata?.name
            return name == "ImageEmbedder" ? .embed : .classify
        } catch {
            throw error.naming(.file(path))
        }
    }
}
