import FileSystem
import Foundation
import ImageTasks
import TFLiteMetadata
import TasksCommon

/// What `vision-tasks inspect` shows first about a served model, for the web app's "Model
/// details": its tensors, its metadata's description, and per output head the categories, the
/// labels and the display-name locales.
package struct ModelSummary: Encodable, Sendable, Equatable {
    /// A tensor of subgraph 0: name, TFLite type ("UINT8", "FLOAT32") and shape.
    package struct Tensor: Encodable, Sendable, Equatable {
        /// The tensor's name ("" when absent).
        package let name: String
        /// The schema's type name: "UINT8", "FLOAT32", "INT8", ...
        package let type: String
        /// Outermost dimension first.
        package let shape: [Int]
    }

    /// An output head: its metadata name, element count, label lines and display-name locales.
    package struct Head: Encodable, Sendable, Equatable {
        /// The output tensor metadata's name (MediaPipe's head name), if any.
        package let name: String?
        /// The output's element count.
        package let categories: Int
        /// The lines of its first labels file, or nil without one.
        package let labels: Int?
        /// The locales of its labels files (display names), in metadata order.
        package let locales: [String]
    }

    /// Subgraph 0's inputs and outputs.
    package let inputs: [Tensor]
    package let outputs: [Tensor]
    /// The metadata's fields; nil when the model has no metadata or not that field.
    package let name: String?
    package let description: String?
    package let version: String?
    package let author: String?
    package let license: String?
    package let heads: [Head]
    /// The display-names locale the server loaded (`serve --locale`), for a classifier.
    package let servedLocale: String?

    /// Reads the model at `path`.
    /// - Throws: `TasksError` naming the file when it cannot be read or is not a TFLite model.
    package init(modelAt path: String, servedLocale: String?) throws(TasksError) {
        let bytes = Data(try FileReader.contents(atPath: path, as: .model))
        let file: TFLiteModelFile
        let tensors: (inputs: [ModelTensor], outputs: [ModelTensor])
        do throws(TasksError) {
            tensors = try ModelTensor.tensors(inModel: bytes)
            file = try TFLiteModelFile(bytes: bytes)
        } catch {
            throw error.naming(.file(path))
        }
        let metadata = file.metadata
        inputs = tensors.inputs.map(Self.tensor)
        outputs = tensors.outputs.map(Self.tensor)
        (name, description, version) = (metadata?.name, metadata?.description, metadata?.version)
        (author, license) = (metadata?.author, metadata?.license)
        let described = metadata?.subgraphs.first?.outputTensors ?? []
        heads = tensors.outputs.enumerated().map { index, output in
            let tensor = index < described.count ? described[index] : nil
            let labels = tensor?.associatedFiles(ofType: .tensorAxisLabels) ?? []
            let lines = labels.first.flatMap { try? file.associatedFiles.contents(of: $0.name) }.map { LabelFile.parse($0).count }
            return Head(
                name: tensor?.name, categories: output.shape.reduce(1) { $0 * Int($1) }, labels: lines,
                locales: labels.compactMap(\.locale))
        }
        self.servedLocale = servedLocale
    }

    private static func tensor(_ tensor: ModelTensor) -> Tensor {
        Tensor(name: tensor.name, type: tensor.typeName, shape: tensor.shape.map(Int.init))
    }
}
