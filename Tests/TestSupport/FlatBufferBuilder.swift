import Foundation

/// A value in a FlatBuffer built by the tests: a tree written front to back (parents
/// before children, so every `uoffset_t` points forward as the format requires).
public indirect enum FB {
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
    /// An `[int]` vector.
    case int32s([Int32])
    /// A `[long]` vector.
    case int64s([Int64])
    /// An object at this position of bytes that will follow the buffer (see
    /// `buffer(root:identifier:externalBase:)`), referenced but not written.
    case external(Int)

    /// The bytes of a FlatBuffer whose root is `root`, with an optional 4-character identifier.
    /// `.external(p)` objects are taken to be at `externalBase + p`: the caller appends them
    /// there (the buffer is at most `externalBase` bytes long, padded by the caller).
    public static func buffer(root: FB, identifier: String?, externalBase: Int = 0) -> [UInt8] {
        var writer = FlatBufferWriter(externalBase: externalBase)
        writer.bytes =
            [0, 0, 0, 0] + Array((identifier ?? "").utf8.prefix(4))
            + Array(repeating: 0, count: 4 - min(4, identifier?.utf8.count ?? 0))
        let rootPosition = writer.place(root)
        writer.patch32(at: 0, UInt32(rootPosition))
        return writer.bytes
    }
}

/// Writes `FB` trees; see `FB.buffer(root:identifier:)`.
struct FlatBufferWriter {
    var bytes: [UInt8] = []
    /// Where the bytes of `.external` objects start.
    let externalBase: Int

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
        case .int32s(let values):
            align(4)
            let position = bytes.count
            append32(UInt32(values.count))
            for value in values { append32(UInt32(bitPattern: value)) }
            return position
        case .int64s(let values):
            // The elements must be 8-byte aligned, so the length before them sits 4 bytes earlier.
            while (bytes.count + 4) % 8 != 0 { bytes.append(0) }
            let position = bytes.count
            append32(UInt32(values.count))
            for value in values {
                append32(UInt32(truncatingIfNeeded: value))
                append32(UInt32(truncatingIfNeeded: value >> 32))
            }
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
        case .external(let position):
            return externalBase + position
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
