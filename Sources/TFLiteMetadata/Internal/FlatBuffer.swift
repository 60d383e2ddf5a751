import Foundation

/// Why a FlatBuffers read failed: the path of the field being read and what was wrong
/// with it. Callers turn it into a `TasksError` that names the buffer ("The model ...").
package struct FlatBufferError: Error, CustomStringConvertible {
    /// The field being read, such as `ModelMetadata.subgraph_metadata[0].name`.
    package var path: String
    /// What was wrong, such as "string at byte 120 (length 4000) ends past the end of the 300-byte buffer".
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// A read-only, bounds-checked view of one FlatBuffers buffer.
///
/// Every read checks its offset against the buffer, so a malformed buffer makes a read
/// throw `FlatBufferError`, never trap. FlatBuffers offsets (`uoffset_t`) only point
/// forward, so chains of references cannot cycle; to bound the work a malformed buffer
/// can cause by sharing one table from many places, the number of tables opened is
/// limited (`maximumTableCount`, as the FlatBuffers verifier's `max_tables`).
///
/// Not `Sendable`: it counts the tables it opens. Create one per parse.
package final class FlatBuffer {
    /// The default limit on tables opened in one parse, as the FlatBuffers verifier's default.
    package static let defaultMaximumTableCount = 1_000_000

    /// The bytes; `base` is the index of byte 0 (a `Data` slice may not start at 0).
    package let data: Data
    private let base: Int
    /// The buffer length in bytes.
    package let count: Int
    /// The most tables one parse may open.
    package let maximumTableCount: Int
    /// Tables that may still be opened before the parse is refused.
    private var remainingTables: Int

    /// Wraps `data` (borrowed: `Data` is a value, so the bytes live as long as this object).
    package init(_ data: Data, maximumTableCount: Int = FlatBuffer.defaultMaximumTableCount) {
        self.data = data
        self.base = data.startIndex
        self.count = data.count
        self.maximumTableCount = maximumTableCount
        self.remainingTables = maximumTableCount
    }

    /// The 4-character file identifier at bytes 4..<8, or the bytes present when the buffer is shorter.
    package var fileIdentifierBytes: [UInt8] {
        guard count > 4 else { return [] }
        return (4..<min(8, count)).map { byte(at: $0) }
    }

    /// The root table: the `uoffset_t` at byte 0 points to it.
    package func rootTable(_ name: String) throws(FlatBufferError) -> FlatBufferTable {
        guard count >= 8 else {
            throw FlatBufferError(path: name, reason: "a FlatBuffer needs at least 8 bytes, the buffer has \(count)")
        }
        let position = try offsetTarget(at: 0, path: name)
        return try table(at: position, path: name)
    }

    // MARK: Checked primitive reads

    /// Throws unless `size` bytes starting at `position` are inside the buffer.
    package func checkRange(_ position: Int, _ size: Int, path: String, what: String) throws(FlatBufferError) {
        guard position >= 0, size >= 0, position <= count, size <= count - position else {
            throw FlatBufferError(
                path: path,
                reason: "\(what) at byte \(position) (\(size) bytes) is outside the \(count)-byte buffer")
        }
    }

    /// The byte at `position`; the caller has checked the range.
    package func byte(at position: Int) -> UInt8 { data[base + position] }

    package func uint16(at position: Int) -> UInt16 {
        UInt16(byte(at: position)) | UInt16(byte(at: position + 1)) << 8
    }

    package func uint32(at position: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(byte(at: position + index)) << (8 * index) }
        return value
    }

    package func uint64(at position: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(byte(at: position + index)) << (8 * index) }
        return value
    }

    /// Follows the `uoffset_t` stored at `position` (the target is `position + offset`).
    package func offsetTarget(at position: Int, path: String) throws(FlatBufferError) -> Int {
        try checkRange(position, 4, path: path, what: "offset")
        let target = position + Int(uint32(at: position))
        try checkRange(target, 1, path: path, what: "offset target")
        return target
    }

    /// Opens the table that starts at `position` (its `soffset_t` to the vtable).
    package func table(at position: Int, path: String) throws(FlatBufferError) -> FlatBufferTable {
        guard remainingTables > 0 else {
            throw FlatBufferError(
                path: path, reason: "more than \(maximumTableCount) tables referenced; refusing to read further")
        }
        remainingTables -= 1
        try checkRange(position, 4, path: path, what: "table")
        let vtableOffset = Int(Int32(bitPattern: uint32(at: position)))
        let vtable = position - vtableOffset
        try checkRange(vtable, 4, path: path, what: "vtable")
        let vtableSize = Int(uint16(at: vtable))
        let tableSize = Int(uint16(at: vtable + 2))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw FlatBufferError(path: path, reason: "vtable at byte \(vtable) has invalid size \(vtableSize)")
        }
        try checkRange(vtable, vtableSize, path: path, what: "vtable")
        guard tableSize >= 4 else {
            throw FlatBufferError(path: path, reason: "table at byte \(position) has invalid inline size \(tableSize)")
        }
        try checkRange(position, tableSize, path: path, what: "table")
        return FlatBufferTable(
            buffer: self, position: position, vtable: vtable, vtableSize: vtableSize, tableSize: tableSize, path: path)
    }
}

/// One table inside a `FlatBuffer`. Field ids are the schema's declaration order
/// (a union field takes two ids: its `_type` then its value).
package struct FlatBufferTable {
    package let buffer: FlatBuffer
    /// Byte offset of the table (its `soffset_t`).
    package let position: Int
    package let vtable: Int
    package let vtableSize: Int
    package let tableSize: Int
    /// The table's path for error messages, such as `ModelMetadata.subgraph_metadata[0]`.
    package let path: String

    private func fieldPath(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    /// The absolute byte offset of field `id` with inline `size`, or nil when the field is absent.
    private func fieldPosition(_ id: Int, size: Int, name: String) throws(FlatBufferError) -> Int? {
        let slot = 4 + 2 * id
        guard slot + 2 <= vtableSize else { return nil }
        let offset = Int(buffer.uint16(at: vtable + slot))
        guard offset != 0 else { return nil }
        guard offset >= 4, offset + size <= tableSize else {
            throw FlatBufferError(
                path: fieldPath(name),
                reason: "field offset \(offset) (\(size) bytes) is outside its \(tableSize)-byte table at byte \(position)")
        }
        return position + offset
    }

    /// A `ubyte`/`byte`/enum field, or `defaultValue` when absent.
    package func uint8(_ id: Int, _ name: String, default defaultValue: UInt8 = 0) throws(FlatBufferError) -> UInt8 {
        guard let at = try fieldPosition(id, size: 1, name: name) else { return defaultValue }
        return buffer.byte(at: at)
    }

    /// A `uint` field, or `defaultValue` when absent.
    package func uint32(_ id: Int, _ name: String, default defaultValue: UInt32 = 0) throws(FlatBufferError) -> UInt32 {
        guard let at = try fieldPosition(id, size: 4, name: name) else { return defaultValue }
        return buffer.uint32(at: at)
    }

    /// A `ulong` field, or `defaultValue` when absent.
    package func uint64(_ id: Int, _ name: String, default defaultValue: UInt64 = 0) throws(FlatBufferError) -> UInt64 {
        guard let at = try fieldPosition(id, size: 8, name: name) else { return defaultValue }
        return buffer.uint64(at: at)
    }

    /// A `float` field, or `defaultValue` when absent.
    package func float32(_ id: Int, _ name: String, default defaultValue: Float = 0) throws(FlatBufferError) -> Float {
        guard let at = try fieldPosition(id, size: 4, name: name) else { return defaultValue }
        return Float(bitPattern: buffer.uint32(at: at))
    }

    /// A `string` field (UTF-8; invalid sequences are replaced), or nil when absent.
    package func string(_ id: Int, _ name: String) throws(FlatBufferError) -> String? {
        guard let at = try fieldPosition(id, size: 4, name: name) else { return nil }
        let path = fieldPath(name)
        let bytes = try FlatBufferVector(
            buffer: buffer, position: buffer.offsetTarget(at: at, path: path), elementSize: 1, path: path
        ).bytes()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A table field, or nil when absent.
    package func table(_ id: Int, _ name: String) throws(FlatBufferError) -> FlatBufferTable? {
        guard let at = try fieldPosition(id, size: 4, name: name) else { return nil }
        let path = fieldPath(name)
        return try buffer.table(at: buffer.offsetTarget(at: at, path: path), path: path)
    }

    /// A vector field whose elements are `elementSize` bytes inline (4 for offsets), or nil when absent.
    package func vector(_ id: Int, _ name: String, elementSize: Int) throws(FlatBufferError) -> FlatBufferVector? {
        guard let at = try fieldPosition(id, size: 4, name: name) else { return nil }
        let path = fieldPath(name)
        return try FlatBufferVector(
            buffer: buffer, position: buffer.offsetTarget(at: at, path: path), elementSize: elementSize, path: path)
    }

    /// The tables of a `[Table]` field; empty when absent.
    package func tables(_ id: Int, _ name: String) throws(FlatBufferError) -> [FlatBufferTable] {
        guard let vector = try vector(id, name, elementSize: 4) else { return [] }
        var tables: [FlatBufferTable] = []
        tables.reserveCapacity(vector.count)
        for index in 0..<vector.count { tables.append(try vector.table(at: index)) }
        return tables
    }

    /// The values of an `[int]` field; empty when absent.
    package func int32s(_ id: Int, _ name: String) throws(FlatBufferError) -> [Int32] {
        guard let vector = try vector(id, name, elementSize: 4) else { return [] }
        return (0..<vector.count).map { Int32(bitPattern: buffer.uint32(at: vector.elementPosition($0))) }
    }

    /// The values of a `[long]` field; empty when absent.
    package func int64s(_ id: Int, _ name: String) throws(FlatBufferError) -> [Int64] {
        guard let vector = try vector(id, name, elementSize: 8) else { return [] }
        return (0..<vector.count).map { Int64(bitPattern: buffer.uint64(at: vector.elementPosition($0))) }
    }

    /// The absolute position of the object a reference field (table, vector, string) points
    /// to, or nil when absent; for copying the reference into another buffer.
    package func referenceTarget(_ id: Int, _ name: String) throws(FlatBufferError) -> Int? {
        guard let at = try fieldPosition(id, size: 4, name: name) else { return nil }
        return try buffer.offsetTarget(at: at, path: fieldPath(name))
    }

    /// Whether the vtable has a non-zero slot at or after `id` (a field this reader does not know).
    package func hasField(atOrAfter id: Int) -> Bool {
        var slot = 4 + 2 * id
        while slot + 2 <= vtableSize {
            if buffer.uint16(at: vtable + slot) != 0 { return true }
            slot += 2
        }
        return false
    }

    /// The values of a `[float]` field; empty when absent.
    package func floats(_ id: Int, _ name: String) throws(FlatBufferError) -> [Float] {
        guard let vector = try vector(id, name, elementSize: 4) else { return [] }
        return (0..<vector.count).map { Float(bitPattern: buffer.uint32(at: vector.elementPosition($0))) }
    }
}

/// A vector inside a `FlatBuffer`: a `uint32` length, then `count` elements of
/// `elementSize` bytes, all checked to lie inside the buffer on creation.
package struct FlatBufferVector {
    package let buffer: FlatBuffer
    /// Byte offset of the first element.
    package let start: Int
    package let count: Int
    package let elementSize: Int
    package let path: String

    package init(buffer: FlatBuffer, position: Int, elementSize: Int, path: String) throws(FlatBufferError) {
        try buffer.checkRange(position, 4, path: path, what: "vector length")
        let count = Int(buffer.uint32(at: position))
        // count <= 2^32 - 1 and elementSize <= 8, so the product fits in Int on 64-bit platforms.
        try buffer.checkRange(position + 4, count * elementSize, path: path, what: "vector of \(count) elements")
        self.buffer = buffer
        self.start = position + 4
        self.count = count
        self.elementSize = elementSize
        self.path = path
    }

    /// Byte offset of element `index` (which the caller keeps in `0..<count`).
    package func elementPosition(_ index: Int) -> Int { start + index * elementSize }

    /// The table that element `index` of a `[Table]` vector points to.
    package func table(at index: Int) throws(FlatBufferError) -> FlatBufferTable {
        let path = "\(path)[\(index)]"
        return try buffer.table(at: buffer.offsetTarget(at: elementPosition(index), path: path), path: path)
    }

    /// The elements of a `[ubyte]` vector (or the bytes of a string).
    package func bytes() -> Data {
        let lower = buffer.data.startIndex + start
        return Data(buffer.data[lower..<(lower + count * elementSize)])
    }
}

/// Runs `body`, which decodes a FlatBuffer, with its errors as `TasksError`: a `FlatBufferError`
/// (an offset or length out of range, a missing required field) becomes invalidArgument
/// "`invalid`: <field>: <why>"; a `TasksError` passes through; anything else is internal.
/// - Parameters:
///   - invalid: what a malformed buffer is, such as "The model is not a valid TFLite model".
///   - subject: what is being read, for the internal error ("the model").
package func decodingFlatBuffer<T>(invalid: String, subject: String, _ body: () throws -> T) throws(TasksError) -> T {
    do {
        return try body()
    } catch let error as FlatBufferError {
        throw .invalidArgument("\(invalid): \(error)")
    } catch let error as TasksError {
        throw error
    } catch {
        throw .internal("Unexpected error while reading \(subject): \(error)")
    }
}
