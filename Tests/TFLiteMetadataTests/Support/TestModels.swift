import Foundation
import TestSupport

/// Builders for the TFLite model and metadata tables the tests need (field ids from the schemas).
enum TestModels {
    /// An `AssociatedFile` table.
    static func associatedFile(_ name: String, type: UInt8, locale: String? = nil) -> FB {
        var fields: [Int: FB] = [0: .string(name), 2: .uint8(type)]
        if let locale { fields[3] = .string(locale) }
        return .table(fields)
    }

    /// A `ProcessUnit` table with options of union type `type`.
    static func processUnit(type: UInt8, options: [Int: FB]) -> FB {
        .table([0: .uint8(type), 1: .table(options)])
    }

    /// A `TensorMetadata` table.
    static func tensor(name: String?, imageColorSpace: UInt8? = nil, processUnits: [FB] = [], files: [FB] = []) -> FB {
        var fields: [Int: FB] = [:]
        if let name { fields[0] = .string(name) }
        if let imageColorSpace { fields[3] = .table([0: .uint8(2), 1: .table([0: .uint8(imageColorSpace)])]) }
        if !processUnits.isEmpty { fields[4] = .tables(processUnits) }
        if !files.isEmpty { fields[6] = .tables(files) }
        return .table(fields)
    }

    /// A `ModelMetadata` FlatBuffer.
    static func metadata(
        name: String? = "test", minParserVersion: String? = "1.0.0",
        subgraphs: [FB] = [], identifier: String = "M001"
    ) -> [UInt8] {
        var fields: [Int: FB] = [:]
        if let name { fields[0] = .string(name) }
        if !subgraphs.isEmpty { fields[3] = .tables(subgraphs) }
        if let minParserVersion { fields[7] = .string(minParserVersion) }
        return FB.buffer(root: .table(fields), identifier: identifier)
    }

    /// A one-subgraph `ModelMetadata` FlatBuffer with the given input and output tensors.
    static func metadata(inputs: [FB], outputs: [FB]) -> [UInt8] {
        metadata(subgraphs: [.table([2: .tables(inputs), 3: .tables(outputs)])])
    }

    /// How the model stores its metadata buffer.
    enum MetadataStorage {
        /// No `Model.metadata` entry.
        case none
        /// `Buffer.data` holds it.
        case inline([UInt8])
        /// Appended after the FlatBuffer, found by `Buffer.offset`/`size`.
        case external([UInt8])
        /// A "TFLITE_METADATA" entry naming buffer `index` (which may not exist).
        case bufferIndex(UInt32)
        /// A buffer with neither data nor offset.
        case emptyBuffer
    }

    /// A TFLite `Model` FlatBuffer with `subgraphCount` empty subgraphs and the metadata
    /// stored as `storage`, followed by `appended` bytes (such as a zip).
    static func model(subgraphCount: Int = 1, storage: MetadataStorage, appended: [UInt8] = []) -> [UInt8] {
        var fields: [Int: FB] = [0: .uint32(3), 2: .tables(Array(repeating: .table([:]), count: subgraphCount))]
        let entry = { (index: UInt32) -> FB in .tables([.table([0: .string("TFLITE_METADATA"), 1: .uint32(index)])]) }
        var external: [UInt8] = []
        switch storage {
        case .none:
            fields[4] = .tables([.table([:])])
        case .inline(let metadata):
            fields[4] = .tables([.table([:]), .table([0: .bytes(metadata)])])
            fields[6] = entry(1)
        case .external(let metadata):
            // Offset and size are patched below, once the FlatBuffer's length is known.
            fields[4] = .tables([.table([:]), .table([1: .uint64(0xAAAA_AAAA_AAAA_AAAA), 2: .uint64(UInt64(metadata.count))])])
            fields[6] = entry(1)
            external = metadata
        case .bufferIndex(let index):
            fields[4] = .tables([.table([:])])
            fields[6] = entry(index)
        case .emptyBuffer:
            fields[4] = .tables([.table([:]), .table([:])])
            fields[6] = entry(1)
        }
        var bytes = FB.buffer(root: .table(fields), identifier: "TFL3")
        if !external.isEmpty {
            while bytes.count % 16 != 0 { bytes.append(0) }
            let offset = UInt64(bytes.count)
            let marker: [UInt8] = Array(repeating: 0xAA, count: 8)
            let at = bytes.firstRange(of: marker)!.lowerBound
            withUnsafeBytes(of: offset.littleEndian) { raw in
                for index in 0..<8 { bytes[at + index] = raw[index] }
            }
            bytes += external
        }
        return bytes + appended
    }
}
