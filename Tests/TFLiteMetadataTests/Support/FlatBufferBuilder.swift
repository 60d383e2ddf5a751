import Foundation

/// A value in a FlatBuffer built by the tests: a tree written front to back (parents
/// before children, so every `uoffset_t` points forward as the format requires).
indirect enum FB {
    /// A table: field id -> value. A union takes two ids (`_type` as `.uint8`, then the table).
    case table([Int: FB])
    case uint8(UInt8)
    case uint32(UInt32)
    case uint64(UInt64)
    case float(Float)
    case string(String)
    /// A vector of tables.
    case tables([FB])
    /// A vector of `count` offsets that all point to one table (to test shared references).
    case sharedTables(FB, count: Int)
    case floats([Float])
    /// A `[ubyte]` vector.
    case bytes([UInt8])

    /// The bytes of a FlatBuffer whose root is `root`, with an optional 4-character identifier.
    static func buffer(root: FB, identifier: String?) -> [UInt8] {
        var writer = FlatBufferWriter()
        writer.bytes = [0, 0, 0, 0] + Array((identifier ?? "").utf8.prefix(4)) + Array(repeating: 0, count: 4 - min(4, identifier?.utf8.count ?? 0))
        let rootPosition = writer.place(root)
        writer.patch32(at: 0, UInt32(rootPosition))
        return writer.bytes
    }
}

/// Writes `FB` trees; see `FB.buffer(root:identifier:)`.
struct FlatBufferWriter {
    var bytes: [UInt8] = []

    mutating func align(_ alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    mutating func append32(_ value: UInt32) {
        bytes += withUnsafeBytes(of: value.littleEndian, Array.init)
    }

    mutating func patch32(at position: Int, _ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for index in 0..<4 { bytes[position + index] = raw[index] }
        }
    }

    /// Writes `node` at the end and returns its position.
    mutating func place(_ node: FB) -> Int {
        switch node {
        case .table(let fields):
            return placeTable(fields)
        case .string(let text):
            align(4)
            let position = bytes.count
            append32(UInt32(text.utf8.count))
            bytes += Array(text.utf8) + [0]
            return position
        case .bytes(let values):
            align(4)
            let position = bytes.count
            append32(UInt32(values.count))
            bytes += values
            return position
        case .floats(let values):
            align(4)
            let position = bytes.count
            append32(UInt32(values.count))
            for value in values { append32(value.bitPattern) }
            return position
        case .tables(let children):
            align(4)
            let position = bytes.count
            append32(UInt32(children.count))
            let slots = bytes.count
            bytes += Array(repeating: 0, count: 4 * children.count)
            for (index, child) in children.enumerated() {
                let slot = slots + 4 * index
                let target = place(child)
                patch32(at: slot, UInt32(target - slot))
            }
            return position
        case .sharedTables(let child, let count):
            align(4)
            let position = bytes.count
            append32(UInt32(count))
            let slots = bytes.count
            bytes += Array(repeating: 0, count: 4 * count)
            let target = place(child)
            for index in 0..<count {
                let slot = slots + 4 * index
                patch32(at: slot, UInt32(target - slot))
            }
            return position
        case .uint8, .uint32, .uint64, .float:
            preconditionFailure("scalars are written inline in tables")
        }
    }

    private static func inlineSize(_ node: FB) -> Int {
        switch node {
        case .uint8: 1
        case .uint64: 8
        default: 4
        }
    }

    private mutating func placeTable(_ fields: [Int: FB]) -> Int {
        let ids = fields.keys.sorted()
        // Inline layout after the 4-byte soffset, each field aligned to its size.
        var offsets: [Int: Int] = [:]
        var size = 4
        for id in ids {
            let fieldSize = Self.inlineSize(fields[id]!)
            while size % fieldSize != 0 { size += 1 }
            offsets[id] = size
            size += fieldSize
        }
        while size % 4 != 0 { size += 1 }
        let slotCount = (ids.last ?? -1) + 1

        align(4)
        let vtable = bytes.count
        func append16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        append16(4 + 2 * slotCount)
        append16(size)
        for id in 0..<slotCount { append16(offsets[id] ?? 0) }
        align(8)
        let table = bytes.count
        append32(UInt32(bitPattern: Int32(table - vtable)))
        bytes += Array(repeating: 0, count: size - 4)

        var references: [(position: Int, node: FB)] = []
        for id in ids {
            let position = table + offsets[id]!
            switch fields[id]! {
            case .uint8(let value): bytes[position] = value
            case .uint32(let value): patch32(at: position, value)
            case .float(let value): patch32(at: position, value.bitPattern)
            case .uint64(let value):
                patch32(at: position, UInt32(truncatingIfNeeded: value))
                patch32(at: position + 4, UInt32(truncatingIfNeeded: value >> 32))
            case let reference: references.append((position, reference))
            }
        }
        for (position, node) in references {
            let target = place(node)
            patch32(at: position, UInt32(target - position))
        }
        return table
    }
}

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
