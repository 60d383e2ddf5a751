import Foundation

/// A value to write into a FlatBuffer: a tree written front to back (parents before
/// children, so every `uoffset_t` points forward as the format requires).
///
/// The writer of the metadata writer (`ModelMetadataWriter`) and of the tests' hand-made
/// models. Field ids are the schema's declaration order; a union takes two ids (`_type` as
/// `.uint8`, then the table). Callers keep buffers far below 2 GiB (offsets are 32-bit).
package indirect enum FlatBufferValue: Sendable {
    /// A table: field id -> value.
    case table([Int: FlatBufferValue])
    case uint8(UInt8)
    case uint32(UInt32)
    case uint64(UInt64)
    case float(Float)
    case string(String)
    /// A vector of tables.
    case tables([FlatBufferValue])
    /// A vector of `count` offsets that all point to one table (to test shared references).
    case sharedTables(FlatBufferValue, count: Int)
    case floats([Float])
    /// A `[ubyte]` vector.
    case bytes([UInt8])
    /// A `[ubyte]` vector whose elements start 16-byte aligned, as TFLite's `Buffer.data`
    /// (`force_align: 16`) needs.
    case alignedBytes([UInt8])
    /// An `[int]` vector.
    case int32s([Int32])
    /// A `[long]` vector.
    case int64s([Int64])
    /// An offset to the object at this position of the bytes that follow the built buffer
    /// (see `prefix(root:identifier:followingAlignment:)`); a table field or a `.tables` element.
    case following(Int)

    /// The bytes of a FlatBuffer whose root is `root`, with an optional 4-character identifier.
    package static func buffer(root: FlatBufferValue, identifier: String?) -> [UInt8] {
        prefix(root: root, identifier: identifier, followingAlignment: 1)
    }

    /// The bytes of a FlatBuffer whose root is `root`, padded to a multiple of
    /// `followingAlignment`, to be followed by other bytes that `.following` values point into (positions counted from the first following byte).
    ///
    /// Following bytes keep their alignment modulo `followingAlignment`.
    package static func prefix(root: FlatBufferValue, identifier: String?, followingAlignment: Int) -> [UInt8] {
        var writer = FlatBufferWriter()
        writer.bytes =
            [0, 0, 0, 0] + Array((identifier ?? "").utf8.prefix(4))
            + Array(repeating: 0, count: 4 - min(4, identifier?.utf8.count ?? 0))
        let rootPosition = writer.place(root)
        writer.patch32(at: 0, UInt32(rootPosition))
        writer.align(followingAlignment)
        for (slot, position) in writer.followingReferences {
            writer.patch32(at: slot, UInt32(writer.bytes.count + position - slot))
        }
        return writer.bytes
    }
}

/// Writes `FlatBufferValue` trees; see `FlatBufferValue.buffer(root:identifier:)`.
private struct FlatBufferWriter {
    var bytes: [UInt8] = []
    /// Offset slots to patch once the buffer's length is known: (slot, position in the following bytes).
    var followingReferences: [(slot: Int, position: Int)] = []

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
    mutating func place(_ node: FlatBufferValue) -> Int {
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
        case .alignedBytes(let values):
            while (bytes.count + 4) % 16 != 0 { bytes.append(0) }
            let position = bytes.count
            append32(UInt32(values.count))
            bytes += values
            return position
        case .floats(let values):
            return placeScalars(values.map(\.bitPattern))
        case .int32s(let values):
            return placeScalars(values.map { UInt32(bitPattern: $0) })
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
            let (position, slots) = placeOffsetSlots(children.count)
            for (index, child) in children.enumerated() {
                let slot = slots + 4 * index
                if case .following(let target) = child {
                    followingReferences.append((slot, target))
                } else {
                    let target = place(child)
                    patch32(at: slot, UInt32(target - slot))
                }
            }
            return position
        case .sharedTables(let child, let count):
            let (position, slots) = placeOffsetSlots(count)
            let target = place(child)
            for index in 0..<count {
                let slot = slots + 4 * index
                patch32(at: slot, UInt32(target - slot))
            }
            return position
        case .uint8, .uint32, .uint64, .float, .following:
            preconditionFailure("scalars and single offsets are written inline in tables")
        }
    }

    /// A vector of `count` zeroed offsets; returns its position and that of its first element.
    private mutating func placeOffsetSlots(_ count: Int) -> (position: Int, slots: Int) {
        align(4)
        let position = bytes.count
        append32(UInt32(count))
        let slots = bytes.count
        bytes += Array(repeating: 0, count: 4 * count)
        return (position, slots)
    }

    private mutating func placeScalars(_ values: [UInt32]) -> Int {
        align(4)
        let position = bytes.count
        append32(UInt32(values.count))
        for value in values { append32(value) }
        return position
    }

    private static func inlineSize(_ node: FlatBufferValue) -> Int {
        switch node {
        case .uint8: 1
        case .uint64: 8
        default: 4
        }
    }

    private mutating func placeTable(_ fields: [Int: FlatBufferValue]) -> Int {
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

        var references: [(position: Int, node: FlatBufferValue)] = []
        for id in ids {
            let position = table + offsets[id]!
            switch fields[id]! {
            case .uint8(let value): bytes[position] = value
            case .uint32(let value): patch32(at: position, value)
            case .float(let value): patch32(at: position, value.bitPattern)
            case .uint64(let value):
                patch32(at: position, UInt32(truncatingIfNeeded: value))
                patch32(at: position + 4, UInt32(truncatingIfNeeded: value >> 32))
            case .following(let target): followingReferences.append((position, target))
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
