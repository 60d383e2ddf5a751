import Foundation

/// Edits a tensor of a real .tflite model in place (same byte length), to make models that
/// break the classifier's contract without a TensorFlow toolchain: a walk of the TFLite
/// FlatBuffer to subgraph 0's first input or output tensor, then its `shape` (field 0) values,
/// its `type` (field 1) byte, or its quantization (field 4) `scale` (field 2) and `zero_point`
/// (field 3) values; or the model's metadata buffer, replaced by a shorter one.
public struct ModelPatcher {
    public private(set) var bytes: [UInt8]

    public init(_ data: Data) { bytes = Array(data) }

    public enum Tensor: Sendable { case input, output }

    /// Replaces the tensor's dimensions (the rank stays the same).
    public mutating func setShape(_ shape: [Int32], of tensor: Tensor) {
        let vector = target(field(0, of: tensorTable(tensor)))
        precondition(Int(u32(vector)) == shape.count, "patch keeps the rank")
        for (index, dimension) in shape.enumerated() {
            write32(UInt32(bitPattern: dimension), at: vector + 4 + 4 * index)
        }
    }

    /// Replaces the tensor's element type (TFLite's TensorType: 0 float32, 3 uint8, 9 int8).
    public mutating func setType(_ type: UInt8, of tensor: Tensor) {
        bytes[field(1, of: tensorTable(tensor))] = type
    }

    /// The tensor's quantization scale (per-tensor quantization: the first of `scale`).
    public func scale(of tensor: Tensor) -> Float { Float(bitPattern: u32(scalePosition(tensor))) }

    /// Replaces the tensor's quantization scale.
    public mutating func setScale(_ scale: Float, of tensor: Tensor) {
        write32(scale.bitPattern, at: scalePosition(tensor))
    }

    /// The tensor's quantization zero point (the first of `zero_point`).
    public func zeroPoint(of tensor: Tensor) -> Int64 {
        let points = target(field(3, of: target(field(4, of: tensorTable(tensor)))))
        precondition(u32(points) >= 1, "per-tensor quantization has one zero point")
        return Int64(u32(points + 4)) | Int64(u32(points + 8)) << 32
    }

    /// Empties the tensor's `scale` and `zero_point` vectors: the tensor then reads as not quantized.
    public mutating func removeQuantization(of tensor: Tensor) {
        let quantization = target(field(4, of: tensorTable(tensor)))
        write32(0, at: target(field(2, of: quantization)))
        write32(0, at: target(field(3, of: quantization)))
    }

    /// Replaces the "TFLITE_METADATA" buffer's contents by `metadata` (a `ModelMetadata`
    /// FlatBuffer, at most as long as the old one), padded with zeros: the model's length and
    /// its appended associated files stay as they are.
    public mutating func replaceMetadata(with metadata: [UInt8]) {
        let model = target(0)
        let entries = target(field(6, of: model))
        let entry = (0..<Int(u32(entries))).map { element($0, ofVector: entries) }.first {
            string(at: target(field(0, of: $0))) == "TFLITE_METADATA"
        }
        guard let entry else { preconditionFailure("the model has metadata") }
        let buffer = element(Int(u32(field(1, of: entry))), ofVector: target(field(4, of: model)))
        let data = target(field(0, of: buffer))
        let length = Int(u32(data))
        precondition(metadata.count <= length, "the new metadata (\(metadata.count) bytes) fits in \(length)")
        bytes.replaceSubrange(
            (data + 4)..<(data + 4 + length), with: metadata + [UInt8](repeating: 0, count: length - metadata.count))
    }

    public var data: Data { Data(bytes) }

    /// The FlatBuffer string at `position` (its length, then its bytes).
    func string(at position: Int) -> String {
        String(decoding: bytes[(position + 4)..<(position + 4 + Int(u32(position)))], as: UTF8.self)
    }

    /// The position of field `id` of `table`, or nil when the field is absent.
    func optionalField(_ id: Int, of table: Int) -> Int? {
        let vtable = table - Int(Int32(bitPattern: u32(table)))
        let vtableSize = Int(UInt16(bytes[vtable]) | UInt16(bytes[vtable + 1]) << 8)
        guard 4 + 2 * id < vtableSize else { return nil }
        let offset = Int(UInt16(bytes[vtable + 4 + 2 * id]) | UInt16(bytes[vtable + 5 + 2 * id]) << 8)
        return offset == 0 ? nil : table + offset
    }

    private func scalePosition(_ tensor: Tensor) -> Int {
        let quantization = target(field(4, of: tensorTable(tensor)))
        let scales = target(field(2, of: quantization))
        precondition(u32(scales) >= 1, "per-tensor quantization has one scale")
        return scales + 4
    }

    /// The position of subgraph 0's first input or output `Tensor` table.
    func tensorTable(_ tensor: Tensor) -> Int {
        let model = target(0)
        let subgraph = element(0, ofVector: target(field(2, of: model)))
        let indices = target(field(tensor == .input ? 1 : 2, of: subgraph))
        let tensorIndex = Int(u32(indices + 4))
        return element(tensorIndex, ofVector: target(field(0, of: subgraph)))
    }

    func element(_ index: Int, ofVector vector: Int) -> Int { target(vector + 4 + 4 * index) }
    func target(_ position: Int) -> Int { position + Int(u32(position)) }

    func field(_ id: Int, of table: Int) -> Int {
        guard let position = optionalField(id, of: table) else { preconditionFailure("field \(id) is present") }
        return position
    }

    func u32(_ position: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[position + $1]) << (8 * $1) }
    }

    private mutating func write32(_ value: UInt32, at position: Int) {
        for index in 0..<4 { bytes[position + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}
