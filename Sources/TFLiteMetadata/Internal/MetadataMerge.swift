import Foundation
import TasksCommon

/// Merges the metadata to write with the model's existing metadata: a value not given keeps
/// the old one, and each old value replaced or dropped is described in `replaced`.
struct MetadataMerge {
    let file: TFLiteModelFile
    private(set) var replaced: [String] = []
    /// Old files whose replacement `replaced` already describes.
    private var replacedFiles: Set<String> = []

    /// Whether the model's output is not the one its old metadata describes (a base with a new
    /// head): nothing of the old output tensor's metadata is kept, not even its name.
    let newOutput: Bool

    init(file: TFLiteModelFile, newOutput: Bool = false) {
        self.file = file
        self.newOutput = newOutput
    }

    /// The contents to write for `new`, on a model with `input` and `output`.
    /// - Throws: `TasksError` when an old labels or calibration file that is kept (none given to
    ///   replace it) cannot be read from the model's zip.
    mutating func contents(
        _ new: ImageClassifierMetadata, input: ModelTensor, output: ModelTensor
    ) throws(TasksError) -> MetadataBuilder.Contents {
        let old = file.metadata
        let oldInput = old?.subgraphs.first?.inputTensors.first
        let oldOutput = newOutput ? nil : old?.subgraphs.first?.outputTensors.first
        if let properties = oldInput?.imageProperties, properties.colorSpace != .rgb {
            replaced.append("image properties: color space \(properties.colorSpace) replaced by RGB")
        }
        let oldNormalization = oldInput?.normalization
        return MetadataBuilder.Contents(
            name: pick("name", new.name, old?.name) ?? "ImageClassifier",
            description: pick("description", new.description, old?.description),
            version: pick("version", new.version, old?.version),
            author: pick("author", new.author, old?.author),
            license: pick("license", new.license, old?.license),
            inputName: oldInput?.name ?? "image",
            normalization: pick("normalization", new.normalization, oldNormalization, describe: Self.describe),
            outputName: oldOutput?.name ?? "probability",
            labels: try labels(new.labels, old: oldOutput),
            scoreCalibration: try scoreCalibration(new.scoreCalibration, old: oldOutput),
            scoreThreshold: oldOutput?.scoreThresholding?.globalScoreThreshold)
    }

    /// Records the files of the model's zip that the new zip does not carry.
    mutating func noteDroppedFiles(keeping names: [String]) {
        for name in file.associatedFiles.names where !names.contains(name) && !replacedFiles.contains(name) {
            replaced.append("associated file \(name): dropped (the new metadata does not name it)")
        }
    }

    /// `new` when given, else `old`; records the replacement when both are given and differ.
    private mutating func pick<Value: Equatable>(
        _ field: String, _ new: Value?, _ old: Value?, describe: (Value) -> String = { "'\($0)'" }
    ) -> Value? {
        if let new, let old, new != old { replaced.append("\(field): \(describe(old)) replaced by \(describe(new))") }
        return new ?? old
    }

    private static func describe(_ normalization: ImageClassifierMetadata.Normalization) -> String {
        "mean \(normalization.mean), std \(normalization.std)"
    }

    private static func describe(_ labels: [ImageClassifierMetadata.Labels]) -> String {
        labels.map { "\($0.fileName) (\($0.labels.count) labels\($0.locale.map { ", locale \($0)" } ?? ""))" }
            .joined(separator: ", ")
    }

    private mutating func labels(
        _ new: [ImageClassifierMetadata.Labels], old output: TensorMetadata?
    ) throws(TasksError) -> [ImageClassifierMetadata.Labels] {
        var old: [ImageClassifierMetadata.Labels] = []
        var unreadable: [String] = []
        for info in output?.associatedFiles(ofType: .tensorAxisLabels) ?? [] {
            do throws(TasksError) {
                let labels = LabelFile.parse(try file.associatedFiles.contents(of: info.name))
                old.append(ImageClassifierMetadata.Labels(fileName: info.name, labels: labels, locale: info.locale))
            } catch {
                // Old labels that are lost (a missing or corrupt zip) are only needed to keep them.
                guard !new.isEmpty else { throw error }
                unreadable.append(info.name)
            }
        }
        if !unreadable.isEmpty {
            replaced.append(
                "labels: \(unreadable.joined(separator: ", ")) (not readable from the model's zip) replaced by \(Self.describe(new))"
            )
            replacedFiles.formUnion(unreadable)
        }
        for info in output?.associatedFiles ?? [] where info.type != .tensorAxisLabels && info.type != .tensorAxisScoreCalibration
        {
            replaced.append("associated file \(info.name) (type \(info.type.rawValue)): dropped")
        }
        let merged = Self.merge(new, into: old)
        let dropped = old.filter { !merged.contains($0) }
        if !dropped.isEmpty {
            let replacements = new.filter { file in dropped.contains { $0.locale == file.locale } }
            replaced.append("labels: \(Self.describe(dropped)) replaced by \(Self.describe(replacements))")
            replacedFiles.formUnion(dropped.map(\.fileName))
        }
        return merged
    }

    /// `old` with each file replaced by the new file of its locale (nil: the category names),
    /// then the new files of other locales; the category names stay first, as readers take the
    /// first labels file for them.
    private static func merge(
        _ new: [ImageClassifierMetadata.Labels], into old: [ImageClassifierMetadata.Labels]
    ) -> [ImageClassifierMetadata.Labels] {
        var merged = old.map { file in new.first { $0.locale == file.locale } ?? file }
        merged += new.filter { file in !old.contains { $0.locale == file.locale } }
        if let names = merged.firstIndex(where: { $0.locale == nil }), names > 0 {
            merged.insert(merged.remove(at: names), at: 0)
        }
        return merged
    }

    private mutating func scoreCalibration(
        _ new: ImageClassifierMetadata.ScoreCalibration?, old output: TensorMetadata?
    ) throws(TasksError) -> ImageClassifierMetadata.ScoreCalibration? {
        guard let options = output?.scoreCalibration else { return new }
        guard let info = output?.associatedFiles(ofType: .tensorAxisScoreCalibration).first else {
            replaced.append("score calibration: dropped (the model has no score calibration file for it)")
            return new
        }
        let contents: Data
        do throws(TasksError) {
            contents = try file.associatedFiles.contents(of: info.name)
        } catch {
            guard let new else { throw error }
            replacedFiles.insert(info.name)
            replaced.append("score calibration: \(info.name) (not readable from the model's zip) replaced by \(new.fileName)")
            return new
        }
        let old = ImageClassifierMetadata.ScoreCalibration(
            fileName: info.name, contents: contents, transformation: options.transformation,
            defaultScore: options.defaultScore)
        guard let new else { return old }
        if old != new {
            replacedFiles.insert(old.fileName)
            replaced.append(
                "score calibration: \(old.fileName) (\(old.transformation.schemaName), default score \(old.defaultScore)) replaced by "
                    + "\(new.fileName) (\(new.transformation.schemaName), default score \(new.defaultScore))")
        }
        return new
    }
}
