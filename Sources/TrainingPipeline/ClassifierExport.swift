import Archives
import FileSystem
import Foundation
import GraphSurgery
import ModelCache
import TFLiteMetadata
import TasksCommon

/// What training put on the base.
package enum TrainedLayers: Sendable {
    /// A softmax head on the extractor's feature tensor (the frozen base).
    case head(DenseHead)
    /// Float32 layers after tensor `cut` of the base, the last giving the logits: fine-tuned
    /// blocks of the base and the head, or a head with hidden layers
    /// (`ClassifierHeadAppender.replacingTail(of:at:with:calibration:)`), and the ranges their
    /// values took on the training photos, for the int8 model.
    case tail(cut: Int, layers: [TailLayer], calibration: TailCalibration)
}

/// A trained classifier to export: the base as a feature extractor, the trained layers, the classes.
package struct TrainedClassifier: Sendable {
    package let extractor: FeatureExtractor
    package let layers: TrainedLayers
    /// The class names, in the head's row order.
    package let classes: [String]
    /// The model metadata's name, version and description.
    package var name: String
    package var version: String
    package var description: String

    package init(
        extractor: FeatureExtractor, layers: TrainedLayers, classes: [String], name: String, version: String,
        description: String
    ) {
        self.extractor = extractor
        self.layers = layers
        self.classes = classes
        self.name = name
        self.version = version
        self.description = description
    }
}

/// Writes a trained classifier in the forms MediaPipe, ML Kit and this tool load, into one
/// folder, all or nothing (written into a sibling folder, then renamed):
///
/// - `model.tflite`: the base, cut at its features, with the head (`ClassifierHeadAppender`) and
///   TFLite Model Metadata (name, version, description, the base's normalization, the labels as
///   `labels.txt`, `TENSOR_AXIS_LABELS`), for MediaPipe's `ImageClassifier`;
/// - `model_quantized.tflite` (when asked): the same with UINT8 scores (within 1/256); with
///   trained layers, those in int8 too (per-channel weights, calibrated activations);
/// - `automl/`: `manifest.json`, `dict.txt` and `model.tflite`, an AutoML Vision Edge export
///   for ML Kit's `AutoMLImageLabelerLocalModel(manifestPath:)` and `label --manifest`;
/// - `remote/NAME.zip`: that export zipped, a bundle to publish, with `remote/index.json`, its
///   entry as `vision-tasks models index` writes it (version 1), so the folder can be served as
///   a model source at once.
package enum ClassifierExport {
    /// The files written, relative to the folder.
    package static let modelFile = "model.tflite"
    package static let quantizedModelFile = "model_quantized.tflite"

    /// Writes `classifier` into `folder`.
    /// - Returns: the written model (`model.tflite`'s bytes).
    /// - Throws: `TasksError`: invalidArgument when `folder` exists (nothing the user has is
    ///   replaced), the graph edit's or the metadata writer's errors, or the file system's,
    ///   naming the path; nothing is left behind on failure.
    @discardableResult
    package static func write(_ classifier: TrainedClassifier, to folder: URL, quantize: Bool) throws(TasksError) -> Data {
        let target = FileSystemPath(folder.path)
        _ = try AtomicWrite.checkNewFolder(target, kind: outputKind)
        let model = try self.model(classifier, quantized: false)
        var files: [(path: String, contents: Data)] = [(modelFile, model)]
        if quantize { files.append((quantizedModelFile, try self.model(classifier, quantized: true))) }
        let labels = Data((classifier.classes.joined(separator: "\n") + "\n").utf8)
        let manifest = Data(
            #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#.utf8 + [0x0A])
        let export: [(name: String, contents: Data)] = [("manifest.json", manifest), ("dict.txt", labels), (modelFile, model)]
        files += export.map { ("automl/\($0.name)", $0.contents) }
        let bundle = try StoredZipWriter.archive(export, startOffset: 0)
        let name = bundleName(classifier.name)
        files.append(("remote/\(name).zip", bundle))
        files.append(("remote/\(ModelIndex.fileName)", remoteIndex(name: name, bundle: bundle)))
        try AtomicWrite.writeFolder(files, as: target, kind: outputKind)
        return model
    }

    /// The index of a model source holding only the bundle, as `models index` writes it.
    private static func remoteIndex(name: String, bundle: Data) -> Data {
        let hasher = SHA256Hasher()
        hasher.update(bundle)
        let entry = ModelIndex.Entry(
            file: "\(name).zip", version: 1, sha256: hasher.finalize(), size: Int64(bundle.count), kind: .automlZip)
        return ModelIndex(models: [name: entry]).jsonData()
    }

    /// The bundle's name: the model's name with characters a model name cannot hold replaced by "-".
    package static func bundleName(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let cleaned = String(name.map { allowed.contains($0) ? $0 : "-" })
        return cleaned.isEmpty || cleaned.hasPrefix(".") ? "model" + cleaned : cleaned
    }

    /// `model.tflite`'s bytes, or `model_quantized.tflite`'s with `quantized`.
    /// - Throws: the graph edit's or the metadata writer's errors.
    package static func model(_ classifier: TrainedClassifier, quantized: Bool) throws(TasksError) -> Data {
        let extractor = classifier.extractor
        let edited: Data
        switch classifier.layers {
        case .head(let head):
            edited = try ClassifierHeadAppender.appending(
                head, to: extractor.baseModel, at: extractor.featureTensor, quantizedOutput: quantized)
        case .tail(let cut, let layers, let calibration):
            edited = try ClassifierHeadAppender.replacingTail(
                of: extractor.baseModel, at: cut, with: layers, calibration: quantized ? calibration : nil)
        }
        let metadata = ImageClassifierMetadata(
            name: classifier.name, description: classifier.description, version: classifier.version,
            labels: [.init(fileName: "labels.txt", labels: classifier.classes)])
        // The base's output metadata (its labels, score calibration and threshold) is for its own scores.
        return try ModelMetadataWriter.write(model: edited, metadata: metadata, newOutput: true).model
    }

    /// What the export's errors call its folder.
    package static let outputKind = FileKind(noun: "output folder", maximumByteCount: .max)
}
