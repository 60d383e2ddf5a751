import Foundation
import LiteRT
import TFLiteMetadata
import TasksCommon

/// A model with one image input, read and checked but not yet compiled: what a task checks its
/// outputs against before paying for compilation.
struct LoadedImageModel {
    /// The file as the metadata reader read it (metadata and associated files).
    let file: TFLiteModelFile
    /// The model as LiteRT loaded it.
    let model: Model
    /// The checked image input.
    let input: ImageInputSpec

    /// Reads the model and checks its input.
    /// - Parameters:
    ///   - bytes: the whole `.tflite` file.
    ///   - modelKind: how the single-subgraph error names the task's models ("Image
    ///     classification", "Embedding"), as MediaPipe's messages do.
    /// - Throws: `TasksError` for an unreadable model, more than one subgraph, and MediaPipe's
    ///   errors for an unsupported input (see `ImageInputSpec`).
    init(bytes: Data, modelKind: String) throws(TasksError) {
        file = try TFLiteModelFile(bytes: bytes)
        model = try Model(bytes: bytes, environment: try Environment())
        guard file.subgraphCount == 1 else {
            throw .invalidArgument(
                "\(modelKind) tflite models are assumed to have a single subgraph; this one has \(file.subgraphCount).")
        }
        input = try ImageInputSpec(inputs: model.inputs, metadata: file.metadata?.subgraphs.first?.inputTensors.first)
    }

    /// Subgraph 0's metadata, if the model has metadata with subgraph metadata.
    var subgraph: SubGraphMetadata? { file.metadata?.subgraphs.first }
}
