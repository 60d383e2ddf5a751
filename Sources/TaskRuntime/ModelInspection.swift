import Foundation
import TFLiteMetadata
import TasksCommon

/// What `vision-tasks inspect` reports about a model: its tensors, its TFLite Model Metadata
/// and packed files, and whether MediaPipe's `ImageClassifier` and this package accept it.
package struct ModelInspection {
    /// Subgraph 0's inputs and outputs, as the FlatBuffer declares them.
    package let inputs: [ModelTensor]
    package let outputs: [ModelTensor]
    /// The model read for metadata, or the reason it could not be (then both refuse it).
    package let file: Result<TFLiteModelFile, TasksError>
    /// Why MediaPipe's ImageClassifier refuses the model; nil when it accepts it.
    package let mediaPipeRefusal: String?
    /// Why this package's classifier refuses the model (`ClassifierEngine`'s own error); nil
    /// when it accepts it.
    package let productRefusal: String?

    /// Reads and checks the model; compiles it with LiteRT to get this package's answer.
    /// - Parameter bytes: the whole `.tflite` file.
    /// - Throws: `TasksError` invalidArgument when the bytes are not a TFLite model whose
    ///   tensors can be read (nothing else to report then).
    package init(bytes: Data) throws(TasksError) {
        (inputs, outputs) = try ModelTensor.tensors(inModel: bytes)
        do {
            let file = try TFLiteModelFile(bytes: bytes)
            self.file = .success(file)
            mediaPipeRefusal = MediaPipeModelRules.refusal(file: file, inputs: inputs, outputs: outputs)
        } catch {
            file = .failure(error)
            mediaPipeRefusal = error.reason
        }
        do {
            _ = try ClassifierEngine(ClassifierConfiguration(asset: ModelAsset(path: "", buffer: bytes), threadCount: 1))
            productRefusal = nil
        } catch {
            productRefusal = error.reason
        }
    }

    /// The model's metadata, if it has readable metadata.
    package var metadata: ModelMetadata? { try? file.get().metadata }

    /// The packed files: name and size in bytes, in the zip's order.
    package var packedFiles: [(name: String, size: Int)] {
        guard let files = try? file.get().associatedFiles else { return [] }
        return files.names.map { name in (name, (try? files.contents(of: name).count) ?? 0) }
    }

    /// The number of lines of the packed labels file `name`, or nil when it cannot be read.
    package func labelCount(_ name: String) -> Int? {
        guard let data = try? file.get().associatedFiles.contents(of: name) else { return nil }
        return LabelFile.parse(data).count
    }
}
