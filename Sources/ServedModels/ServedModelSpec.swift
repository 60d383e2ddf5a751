import FileSystem
import Foundation
import ImageTasks
import TFLiteMetadata
import TasksCommon

/// One model to serve, before it is loaded: its name, where it comes from, what a `.tflite`
/// model does, and how many instances to load (`serve --model`, `--label`, `--remote`).
package struct ServedModelSpec: Sendable, Equatable {
    /// Where the model comes from.
    package enum Source: Sendable, Equatable {
        /// A `.tflite` file: a classifier or an embedder, as `task` resolves for it.
        case model(path: String)
        /// An AutoML Vision Edge export's `manifest.json`: a labeler.
        case manifest(path: String)
        /// The version of a downloaded model installed in the catalog's `ModelStore` when it is
        /// built: an AutoML export serves as a labeler, a `.tflite` as `model` does.
        case remote(name: String)
    }

    /// What a `.tflite` model does (`serve --task`).
    package enum Task: String, Sendable, CaseIterable {
        /// Embed when the model's metadata is named "ImageEmbedder" (as MediaPipe's embedder
        /// models are), else classify.
        case auto
        case classify
        case embed

        /// The kind of the model at `path`: this task's, or for `auto` the one its metadata names.
        /// - Throws: `TasksError` naming the file when `auto` cannot read it as a TFLite model.
        package func resolved(forModelAt path: String) throws(TasksError) -> ServedTaskKind {
            switch self {
            case .classify: return .classifier
            case .embed: return .embedder
            case .auto:
                let bytes = try FileReader.contents(atPath: path, as: .model)
                do throws(TasksError) {
                    let name = try TFLiteModelFile(bytes: Data(bytes)).metadata?.name
                    return name == "ImageEmbedder" ? .embedder : .classifier
                } catch {
                    throw error.naming(.file(path))
                }
            }
        }
    }

    /// The name the server serves it as: a URL path segment.
    package var name: String
    package var source: Source
    /// What a `.tflite` model does; a labeler ignores it.
    package var task: Task
    /// Instances loaded: requests served at once by the model (at least 1).
    package var workers: Int

    package init(name: String, source: Source, task: Task = .auto, workers: Int = 2) {
        self.name = name
        self.source = source
        self.task = task
        self.workers = workers
    }
}
