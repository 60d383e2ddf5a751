import Archives
import Foundation
import TasksCommon

/// Puts a new metadata buffer and zip of associated files into a model without re-encoding
/// its graph or weights.
///
/// A FlatBuffer's references only point forward, so the new `Model` root table, its new
/// `buffers` and `metadata` vectors and the metadata buffer are written first, and the old
/// FlatBuffer follows, unchanged, shifted by a multiple of 64 bytes (which keeps the 16-byte
/// alignment of weight buffers). The new root copies the old root's other fields as
/// references into the shifted bytes. The old buffer holding replaced metadata stays
/// referenced at its index (tensors name buffers by index), now pointing to the new bytes;
/// the old zip of associated files is dropped and the new one appended.
package enum ModelSplicer {
    /// The largest FlatBuffer (offsets are signed 32-bit), in bytes.
    package static let maximumFlatBufferSize = Int(Int32.max)
    /// Alignment of the old FlatBuffer in the new file.
    private static let shiftAlignment = 64

    /// The model `bytes` with `metadata` as its "TFLITE_METADATA" buffer and `files` zipped after it.
    /// - Throws: `TasksError` invalidArgument when the model is not a valid TFLite FlatBuffer,
    ///   keeps weights outside the FlatBuffer (models over 2 GB, which this writer does not
    ///   move), has `Model` fields newer than this schema, or when the result passes 2 GiB.
    package static func splice(
        model bytes: Data, metadata: [UInt8], files: [(name: String, contents: Data)]
    ) throws(TasksError) -> Data {
        let root = try decodingModel(bytes, invalid: "The model is not a valid TFLite model", subject: "the model") {
            try newRoot(of: FlatBuffer(bytes).rootTable("Model"), metadata: metadata)
        }
        let prefix = FlatBufferValue.prefix(root: root, identifier: "TFL3", followingAlignment: shiftAlignment)
        let oldEnd = try flatBufferEnd(of: bytes)
        let flatBufferSize = prefix.count + oldEnd
        guard flatBufferSize <= maximumFlatBufferSize else {
            throw .invalidArgument(
                "The model with its new metadata would be \(flatBufferSize) bytes, more than a FlatBuffer's limit of \(maximumFlatBufferSize) bytes (2 GiB)."
            )
        }
        var result = Data(capacity: flatBufferSize)
        result += prefix
        result += bytes[bytes.startIndex..<(bytes.startIndex + oldEnd)]
        if !files.isEmpty {
            result += try StoredZipWriter.archive(files, startOffset: result.count)
        }
        return result
    }

    /// Where the model's zip of associated files starts (the bytes before it are the FlatBuffer),
    /// or its size when it has none. The old zip is dropped by the writers: a new one replaces
    /// it, and left in place it would be the one readers find when no new zip follows.
    /// - Throws: `TasksError` invalidArgument when libzip opens a zip whose start cannot be located.
    package static func flatBufferEnd(of bytes: Data) throws(TasksError) -> Int {
        guard AssociatedFiles(modelBytes: bytes).hasArchive else { return bytes.count }
        guard let start = StoredZipWriter.archiveStart(in: bytes) else {
            throw .invalidArgument(
                "The model's zip of associated files could not be located (its central directory is not where its end record says); it was not changed."
            )
        }
        return start
    }

    /// The new `Model` table: the old fields as references into the old bytes, new `buffers`
    /// and `metadata` vectors.
    private static func newRoot(of model: FlatBufferTable, metadata: [UInt8]) throws -> FlatBufferValue {
        guard !model.hasField(atOrAfter: Schema.Model.fieldCount) else {
            throw TasksError.invalidArgument(
                "The model has fields newer than the TFLite schema this writer knows (Model has more than \(Schema.Model.fieldCount) fields); it was not changed."
            )
        }
        var fields: [Int: FlatBufferValue] = [Schema.Model.version: .uint32(try model.uint32(Schema.Model.version, "version"))]
        for id in 1..<Schema.Model.fieldCount where id != Schema.Model.buffers && id != Schema.Model.metadata {
            if let target = try model.referenceTarget(id, "field \(id)") { fields[id] = .following(target) }
        }
        var buffers: [FlatBufferValue] = []
        for (index, buffer) in try model.tables(Schema.Model.buffers, "buffers").enumerated() {
            guard try buffer.uint64(Schema.Buffer.offset, "offset") <= 1 else {
                throw TasksError.invalidArgument(
                    "Model.buffers[\(index)] is stored outside the FlatBuffer (a model over 2 GB); this writer does not move such buffers."
                )
            }
            buffers.append(.following(buffer.position))
        }
        var entries: [FlatBufferValue] = []
        var metadataIndex: Int?
        for entry in try model.tables(Schema.Model.metadata, "metadata") {
            if try entry.string(Schema.Metadata.name, "name") == TFLiteModelFile.metadataBufferName {
                let index = Int(try entry.uint32(Schema.Metadata.buffer, "buffer"))
                // The first entry is the one readers use; a later duplicate is dropped.
                if metadataIndex == nil, index < buffers.count { metadataIndex = index }
            } else {
                entries.append(.following(entry.position))
            }
        }
        // Buffer 0 is the empty sentinel tensors without data refer to.
        if buffers.isEmpty { buffers.append(.table([:])) }
        let index = metadataIndex ?? buffers.count
        let newBuffer = FlatBufferValue.table([Schema.Buffer.data: .alignedBytes(metadata)])
        if index < buffers.count { buffers[index] = newBuffer } else { buffers.append(newBuffer) }
        entries.append(
            .table([
                Schema.Metadata.name: .string(TFLiteModelFile.metadataBufferName), Schema.Metadata.buffer: .uint32(UInt32(index)),
            ]))
        fields[Schema.Model.buffers] = .tables(buffers)
        fields[Schema.Model.metadata] = .tables(entries)
        return .table(fields)
    }
}
