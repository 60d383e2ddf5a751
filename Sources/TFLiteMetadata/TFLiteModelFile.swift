import Foundation
import TasksCommon

/// A TFLite model file as MediaPipe Tasks reads it for metadata: the subgraph count, the
/// TFLite Support metadata and the associated files appended to the model.
///
/// Mirrors MediaPipe's `ModelMetadataExtractor::InitFromModelBuffer`
/// (`tasks/cc/metadata/metadata_extractor.cc`). The model's `Model.metadata` entry named
/// "TFLITE_METADATA" indexes `Model.buffers`; that buffer holds the "M001" metadata
/// FlatBuffer, either inline (`Buffer.data`) or, in models over 2 GB, outside the
/// FlatBuffer (`Buffer.offset`/`Buffer.size`, absolute file offsets). Only what is read
/// here is checked (the model table, subgraph list, buffer extents and metadata), unlike
/// MediaPipe's full FlatBuffers verification: the engine verifies the whole model when it
/// loads it.
package struct TFLiteModelFile: Sendable {
    /// The `Model.metadata` entry name of the TFLite Support metadata buffer.
    package static let metadataBufferName = "TFLITE_METADATA"

    /// The number of subgraphs (`Model.subgraphs`); MediaPipe's classifier needs exactly 1.
    package let subgraphCount: Int
    /// The model's TFLite Support metadata; nil when the model has none.
    package let metadata: ModelMetadata?
    /// The files of the zip appended to the model (empty when there is none).
    package let associatedFiles: AssociatedFiles

    /// Parses a model.
    ///
    /// - Parameter bytes: the whole `.tflite` file (the "TFL3" identifier is optional).
    /// - Throws: `TasksError`:
    ///   - `invalidArgumentError` "The model is not a valid TFLite model: <field>: <why>" when
    ///     the FlatBuffer is truncated or an offset points outside it (MediaPipe says "The
    ///     model is not a valid FlatBuffer buffer." there), or "The file is not a TFLite model:
    ///     its file identifier (bytes 4-7) is <hex>, not "TFL3". It looks like <format>." when
    ///     such a file does not have the identifier either (a photo, a zip given as a model);
    ///   - `invalidArgumentError` "Metadata refers to an out-of-range buffer index." and
    ///     "Metadata buffer has no data." (MediaPipe's texts, with the values);
    ///   - the errors of `ModelMetadata.init(bytes:)` (schema identifier, parser version,
    ///     duplicate process units, malformed metadata);
    ///   - when the model has metadata, `unknownError` "Expected uncompressed zip archive."
    ///     or "Unable to read the file in zip archive." when its zip holds a compressed or
    ///     unreadable file (as MediaPipe, which fails then). A model whose bytes hold no
    ///     zip is valid: asking for a file then throws `notFoundError`.
    package init(bytes: Data) throws(TasksError) {
        let metadataBytes: Data?
        (subgraphCount, metadataBytes) = try decodingModel(
            bytes, invalid: "The model is not a valid TFLite model", subject: "the model"
        ) {
            let model = try FlatBuffer(bytes).rootTable("Model")
            // Open every subgraph table so that a corrupt subgraph list is reported here.
            let subgraphCount = try model.tables(Schema.Model.subgraphs, "subgraphs").count
            try Self.checkBuffers(of: model, in: bytes)
            return (subgraphCount, try Self.metadataBuffer(of: model, in: bytes))
        }

        metadata = try metadataBytes.map { (bytes) throws(TasksError) in try ModelMetadata(bytes: bytes) }
        associatedFiles = AssociatedFiles(modelBytes: bytes)
        if metadata != nil, let error = associatedFiles.readError {
            throw error
        }
    }

    /// Checks that every `Model.buffers` entry (the weights) lies inside the file, so that a
    /// truncated model is refused here rather than when it runs. O(number of buffers).
    private static func checkBuffers(of model: FlatBufferTable, in file: Data) throws {
        for buffer in try model.tables(Schema.Model.buffers, "buffers") {
            _ = try buffer.vector(Schema.Buffer.data, "data", elementSize: 1)
            _ = try externalRange(of: buffer, in: file)
        }
    }

    /// The range in `file` of a buffer stored after the FlatBuffer (`Buffer.offset` > 1),
    /// or nil when the buffer is not stored so.
    private static func externalRange(of buffer: FlatBufferTable, in file: Data) throws -> Range<Int>? {
        // Models over 2 GB keep buffers after the FlatBuffer: absolute offset, valid when > 1.
        let offset = try buffer.uint64(Schema.Buffer.offset, "offset")
        guard offset > 1 else { return nil }
        let size = try buffer.uint64(Schema.Buffer.size, "size")
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= UInt64(file.count) else {
            throw FlatBufferError(
                path: buffer.path,
                reason: "external buffer at offset \(offset) with size \(size) is outside the \(file.count)-byte file")
        }
        return (file.startIndex + Int(offset))..<(file.startIndex + Int(end))
    }

    /// The bytes of the first "TFLITE_METADATA" buffer, or nil when there is none.
    private static func metadataBuffer(of model: FlatBufferTable, in file: Data) throws -> Data? {
        guard let entries = try model.vector(Schema.Model.metadata, "metadata", elementSize: 4) else { return nil }
        for index in 0..<entries.count {
            let entry = try entries.table(at: index)
            guard try entry.string(Schema.Metadata.name, "name") == metadataBufferName else { continue }
            let bufferIndex = try entry.uint32(Schema.Metadata.buffer, "buffer")
            let buffers = try model.vector(Schema.Model.buffers, "buffers", elementSize: 4)
            guard let buffers, bufferIndex < buffers.count else {
                throw TasksError.invalidArgument(
                    "Metadata refers to an out-of-range buffer index. Model.metadata[\(index)] '\(metadataBufferName)' refers to buffer \(bufferIndex), the model has \(buffers?.count ?? 0) buffers."
                )
            }
            let buffer = try buffers.table(at: Int(bufferIndex))
            if let data = try buffer.vector(Schema.Buffer.data, "data", elementSize: 1), data.count > 0 {
                return data.bytes()
            }
            if let range = try externalRange(of: buffer, in: file) {
                return Data(file[range])
            }
            throw TasksError.invalidArgument(
                "Metadata buffer has no data. Model.buffers[\(bufferIndex)], named by '\(metadataBufferName)', has neither data nor an external offset."
            )
        }
        return nil
    }
}
