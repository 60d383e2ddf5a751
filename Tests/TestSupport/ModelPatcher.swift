import Foundation

/// Edits a tensor of a real .tflite model in place (same byte length), to make models that
/// break the classifier's contract without a TensorFlow toolchain: a walk of the TFLite
/// FlatBuffer to subgraph 0's first input or output tensor, then its `shape` (field 0) values,
/// its `type` (field 1) byte, or its quantization (field 4) `scale` (field 2) value.
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

    public var data: Data { Data(bytes) }

    private func scalePosition(_ tensor: Tensor) -> Int {
        let quantization = target(field(4, of: tensorTable(tensor)))
        let scales = target(field(2, of: quantization))
        precondition(u32(scales) >= 1, "per-tensor quantization has one scale")
        return scales + 4
    }

    private func tensorTable(_ tensor: Tensor) -> Int {
        let model = target(0)
        let subgraph = element(0, ofVector: target(field(2, of: model)))
        let indices = target(field(tensor == .input ? 1 : 2, of: subgraph))
        let tensorIndex = Int(u32(indices + 4))
        return element(tensorIndex, ofVector: target(field(0, of: subgraph)))
    }

    private func element(_ index: Int, ofVector vector: Int) -> Int { target(vector + 4 + 4 * index) }
    private func target(_ position: Int) -> Int { position + Int(u32(position)) }

    private func field(_ id: Int, of table: Int) -> Int {
        let vtable = table - Int(Int32(bitPattern: u32(table)))
        let offset = Int(UInt16(bytes[vtable + 4 + 2 * id]) | UInt16(bytes[vtable + 5 + 2 * id]) << 8)
        precondition(offset != 0, "field \(id) is present")
        return table + offset
    }

    private func u32(_ position: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[position + $1]) << (8 * $1) }
    }

    private mutating func write32(_ value: UInt32, at position: Int) {
        for index in 0..<4 { bytes[position + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}
