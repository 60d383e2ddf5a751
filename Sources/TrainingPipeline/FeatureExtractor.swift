import FileSystem
import Foundation
import GraphSurgery
import ImageTasks
import TFLiteMetadata
import TasksCommon
import VisionTasks

/// A frozen base model as a feature extractor: the base cut at its feature tensor
/// (`ClassifierHeadAppender`), run as MediaPipe's `ImageEmbedder` runs a model (preprocessing
/// as the base's metadata says, uint8 features dequantized).
package struct FeatureExtractor: Sendable {
    /// The base model's path, as given.
    package let basePath: String
    /// The whole base model.
    package let baseModel: Data
    /// The feature tensor's index in the base and its description.
    package let featureTensor: Int
    package let tensor: ModelTensor
    /// The base cut at the feature tensor.
    package let extractorModel: Data
    /// The number of features (the tensor's element count).
    package let dimension: Int
    /// What identifies these features: the base's SHA-256 and the tensor, for the cache.
    package let identity: String

    /// Reads the base at `path` and finds its feature tensor: `tensorName` (a tensor name, or
    /// an index) when given, else `ClassifierHeadAppender.featureTensor(of:)`.
    /// - Throws: `TasksError` naming the model: it cannot be read or is not a TFLite model with
    ///   one subgraph; no tensor has that name; the tensor is not a feature of one image
    ///   computed by the model (see `ClassifierHeadAppender.cutting(_:at:)`).
    package init(base path: String, featureTensor tensorName: String? = nil) throws(TasksError) {
        let bytes = Data(try FileReader.contents(atPath: path, as: .model))
        do throws(TasksError) {
            let found: (index: Int, tensor: ModelTensor)
            if let tensorName {
                found = try ClassifierHeadAppender.tensor(named: tensorName, in: bytes)
            } else {
                found = try ClassifierHeadAppender.featureTensor(of: bytes)
            }
            extractorModel = try ClassifierHeadAppender.cutting(bytes, at: found.index)
            featureTensor = found.index
            tensor = found.tensor
        } catch {
            throw error.naming(.file(path))
        }
        basePath = path
        baseModel = bytes
        dimension = tensor.shape.reduce(1) { $0 * Int($1) }
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        identity = "\(hasher.finalize())-tensor\(featureTensor)"
    }

    /// An embedding task on the cut base, for one of `workers` workers.
    /// - Throws: as `ImageEmbedder.init(options:)`, naming the base.
    package func task(threads: Int) throws(TasksError) -> EmbeddingTask {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetBuffer = extractorModel
        options.baseOptions.threadCount = threads
        do throws(TasksError) {
            return try EmbeddingTask(options: options, processing: ImageProcessing())
        } catch {
            throw error.naming(.file(basePath))
        }
    }
}
