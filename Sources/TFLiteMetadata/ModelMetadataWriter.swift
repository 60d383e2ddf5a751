import FileSystem
import Foundation
import TasksCommon

/// Writes TFLite Model Metadata into an image classification model, so that MediaPipe's
/// `ImageClassifier`, ML Kit's image labeler and this package can use a model that has none
/// (or correct the metadata it has).
///
/// The Swift counterpart of the TFLite Support metadata writer for image classifiers
/// (`tflite_support.metadata_writers.image_classifier`): the model gets a "TFLITE_METADATA"
/// buffer holding a "M001" `ModelMetadata` FlatBuffer, and the labels and score calibration
/// files are packed, uncompressed, in a zip appended to the model. The graph and the weights
/// are not re-encoded: the new metadata is placed in front of them (see the README's "Your own
/// model"). The written model is read back before it is returned.
///
/// Existing metadata is merged: a field of `ImageClassifierMetadata` left nil (or labels left
/// empty) keeps the model's value, and every value that is replaced is reported.
public enum ModelMetadataWriter {
    /// A model with its new metadata, and what of the old metadata it replaced.
    public struct Result: Sendable {
        /// The whole new `.tflite` file.
        public let model: Data
        /// One line per replaced or dropped value of the old metadata, such as
        /// "normalization: mean [127.5], std [127.5] replaced by mean [0.0], std [255.0]";
        /// empty for a model that had no metadata.
        public let replaced: [String]
    }

    /// The longest labels, calibration and text fields accepted, in bytes: each is a few
    /// kilobytes in real models, and the limit keeps a wrong file from growing the model.
    public static let maximumFileSize = 64 << 20

    /// Writes `metadata` into the model `model`.
    ///
    /// - Parameters:
    ///   - model: the whole `.tflite` file, with or without metadata. It must have one
    ///     subgraph with one image input `[1, height, width, 3]` and one output of N scores.
    ///   - metadata: what to write; nil fields keep the model's existing values.
    /// - Returns: the new model and what was replaced.
    /// - Throws: `TasksError` invalidArgument naming the field at fault: a model that is not a
    ///   valid TFLite FlatBuffer, has several inputs or outputs, or would pass 2 GiB; a FLOAT32
    ///   input without normalization; normalization that is not 1 or 3 finite values per
    ///   field, has a zero std, or maps pixels past the largest float (a huge mean over a small
    ///   std); a labels file whose count is not N, with a line break in a label, or a duplicate
    ///   file name or locale; a calibration file MediaPipe cannot parse or whose line count is
    ///   not N. Errors of the existing metadata (see `TFLiteModelFile`).
    public static func write(model: Data, metadata: ImageClassifierMetadata) throws(TasksError) -> Result {
        try write(model: model, metadata: metadata, newOutput: false)
    }

    /// `write(model:metadata:)` for a model whose output is new (a base with a trained head):
    /// with `newOutput`, the old output tensor's metadata (labels, score calibration and
    /// threshold, other files, name) is not kept, as it describes the base's scores; the input's
    /// and the model's fields are merged as `write(model:metadata:)` does.
    package static func write(
        model: Data, metadata: ImageClassifierMetadata, newOutput: Bool
    ) throws(TasksError)
        -> Result
    {
        let file = try TFLiteModelFile(bytes: model)
        let (inputs, outputs) = try ModelTensor.tensors(inModel: model)
        guard file.subgraphCount == 1, inputs.count == 1, outputs.count == 1 else {
            throw .invalidArgument(
                "The metadata writer writes image classifiers with one subgraph, one input and one output; this model has \(file.subgraphCount) subgraphs, \(inputs.count) inputs and \(outputs.count) outputs."
            )
        }
        var merge = MetadataMerge(file: file, newOutput: newOutput)
        let contents = try merge.contents(metadata, input: inputs[0], output: outputs[0])
        try MetadataValidation.check(contents, input: inputs[0], output: outputs[0])
        var files = contents.labels.map { ($0.fileName, Data(($0.labels.joined(separator: "\n") + "\n").utf8)) }
        if let calibration = contents.scoreCalibration { files.append((calibration.fileName, calibration.contents)) }
        merge.noteDroppedFiles(keeping: files.map(\.0))
        let written = try ModelSplicer.splice(model: model, metadata: MetadataBuilder.buffer(contents), files: files)
        try readBack(written, expecting: contents, files: files)
        return Result(model: written, replaced: merge.replaced)
    }

    /// Reads the model at `inputPath`, writes `metadata` into it and saves it at `outputPath`
    /// (replaced atomically: a reader never sees half a file; the input may be the output).
    ///
    /// - Returns: what of the old metadata was replaced (see `Result.replaced`).
    /// - Throws: `TasksError` as `write(model:metadata:)`, naming the input model file as the
    ///   subject; the file errors of reading the input (not found, not a regular file, over
    ///   2 GiB); naming the output file when it cannot be written (a folder, a folder that does
    ///   not exist or is not writable, a symbolic link to nothing); the output is then unchanged.
    ///   A symbolic link at `outputPath` is followed: the file it leads to is replaced, keeping
    ///   its permissions.
    public static func write(
        modelAt inputPath: String, to outputPath: String, metadata: ImageClassifierMetadata
    ) throws(TasksError)
        -> [String]
    {
        try write(modelAt: FileSystemPath(inputPath), to: FileSystemPath(outputPath), metadata: metadata)
    }

    /// `write(modelAt:to:metadata:)` for paths as bytes (`FileSystemPath`: Linux names need not
    /// be UTF-8). Not in TFLite Support, whose paths are `str`.
    public static func write(
        modelAt inputPath: FileSystemPath, to outputPath: FileSystemPath, metadata: ImageClassifierMetadata
    ) throws(TasksError)
        -> [String]
    {
        let bytes = try FileReader.contents(of: inputPath, as: .model)
        let result: Result
        do {
            result = try write(model: Data(bytes), metadata: metadata)
        } catch {
            throw error.naming(.file(inputPath.description))
        }
        AtomicWrite.removeStaleStaging(of: outputPath)
        try AtomicWrite.write(result.model, to: outputPath, kind: .model)
        return result.replaced
    }

    /// Reads the written model as every reader will, and checks it holds what was written.
    private static func readBack(
        _ model: Data, expecting contents: MetadataBuilder.Contents, files: [(String, Data)]
    ) throws(TasksError) {
        let file: TFLiteModelFile
        do {
            file = try TFLiteModelFile(bytes: model)
        } catch {
            throw .internal("The written model does not read back: \(error.message)")
        }
        let metadata = file.metadata
        let input = metadata?.subgraphs.first?.inputTensors.first
        let output = metadata?.subgraphs.first?.outputTensors.first
        let expectedFiles =
            contents.labels.map { AssociatedFileInfo(name: $0.fileName, type: .tensorAxisLabels, locale: $0.locale) }
            + (contents.scoreCalibration.map { [AssociatedFileInfo(name: $0.fileName, type: .tensorAxisScoreCalibration)] } ?? [])
        let checks = [
            metadata?.name == contents.name, metadata?.description == contents.description,
            metadata?.version == contents.version, metadata?.author == contents.author, metadata?.license == contents.license,
            input?.normalization.map { [$0.mean, $0.std] } == contents.normalization.map { [$0.mean, $0.std] },
            output?.associatedFiles.map { AssociatedFileInfo(name: $0.name, type: $0.type, locale: $0.locale) } == expectedFiles,
            output?.scoreCalibration?.transformation == contents.scoreCalibration?.transformation,
            file.associatedFiles.names == files.map(\.0),
            files.allSatisfy { name, data in (try? file.associatedFiles.contents(of: name)) == data },
        ]
        guard checks.allSatisfy({ $0 }) else {
            throw .internal("The written model does not read back: its metadata or associated files differ from those written.")
        }
    }
}
