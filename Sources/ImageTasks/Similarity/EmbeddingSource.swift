import FileSystem
import Foundation
import TFLiteMetadata
import TasksCommon
import VisionTasks

/// What made an embedding's values: the model (by content), the output tensor of its head,
/// and the embedder options that change the values. `embed` writes it into each embedding's
/// record (`"source"`), and `similar --embeddings FILE` refuses a file whose embeddings another
/// model or other options made: two models of the same size give vectors that compare as
/// numbers but mean different things.
///
/// JSON: `{"model", "modelSHA256", "outputTensor", "l2Normalize", "quantize"}`, `model` the
/// model file's name (for messages; the digest decides).
package struct EmbeddingSource: Codable, Equatable, Sendable {
    package var model: String
    package var modelSHA256: String
    package var outputTensor: String
    package var l2Normalize: Bool
    package var quantize: Bool

    package init(model: String, modelSHA256: String, outputTensor: String, l2Normalize: Bool, quantize: Bool) {
        self.model = model
        self.modelSHA256 = modelSHA256
        self.outputTensor = outputTensor
        self.l2Normalize = l2Normalize
        self.quantize = quantize
    }

    /// The source of each head's embeddings for an embedder made with `options`, in head order.
    /// - Throws: `TasksError` naming the model when it cannot be read or is not a TFLite model.
    package static func sources(of options: ImageEmbedderOptions) throws(TasksError) -> [EmbeddingSource] {
        let base = options.baseOptions
        let bytes: Data
        let name: String
        if let buffer = base.modelAssetBuffer {
            (bytes, name) = (buffer, "model buffer")
        } else {
            let path = base.modelAssetPath
            bytes = Data(try FileReader.contents(atPath: path, as: .model))
            name = URL(fileURLWithPath: path).lastPathComponent
        }
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        let digest = hasher.finalize()
        return try ModelTensor.tensors(inModel: bytes).outputs.enumerated().map { index, tensor in
            EmbeddingSource(
                model: name, modelSHA256: digest, outputTensor: tensor.name.isEmpty ? "output \(index)" : tensor.name,
                l2Normalize: options.l2Normalize, quantize: options.quantize)
        }
    }

    /// Whether embeddings of both sources are alike: the same model content, output tensor and
    /// options (the model's file name may differ: a copy makes the same values).
    package func makesTheSameValues(as other: EmbeddingSource) -> Bool {
        modelSHA256 == other.modelSHA256 && outputTensor == other.outputTensor && l2Normalize == other.l2Normalize
            && quantize == other.quantize
    }

    /// "mobilenet.tflite (SHA-256 1a2b3c4d…, tensor "embedding", L2-normalized)", for messages.
    var description: String {
        let options = [l2Normalize ? "L2-normalized" : nil, quantize ? "quantized" : nil].compactMap { $0 }
        return "\(model) (SHA-256 \(modelSHA256.prefix(12))…, tensor \"\(outputTensor)\""
            + options.map { ", \($0)" }.joined() + ")"
    }
}
