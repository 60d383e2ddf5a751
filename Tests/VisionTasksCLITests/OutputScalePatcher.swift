import Foundation

/// Sets the quantization scale of a .tflite model's first output tensor, in place (a float of
/// the FlatBuffer is overwritten; nothing moves). A walk of the TFLite schema: Model.subgraphs
/// (field 2)[0] → SubGraph.outputs (field 2)[0] indexes SubGraph.tensors (field 0) → Tensor.
/// quantization (field 4) → QuantizationParameters.scale (field 2)[0]. After the walk in
/// `Tests/VisionTasksTests/ModelPatcher.swift`, which edits shapes and types.
struct OutputScalePatcher {
    private(set) var bytes: [UInt8]

    init(_ data: Data) { bytes = Array(data) }

    var data: Data { Data(bytes) }

    /// The output's current scale.
    var scale: Float { Float(bitPattern: u32(scalePosition)) }

    /// Replaces the output's scale.
    mutating func setScale(_ scale: Float) {
        let position = scalePosition
        for index in 0..<4 { bytes[position + index] = UInt8(truncatingIfNeeded: scale.bitPattern >> (8 * index)) }
    }

    private var scalePosition: Int {
        let model = target(0)
        let subgraph = element(0, ofVector: target(field(2, of: model)))
        let outputs = target(field(2, of: subgraph))
        let tensor = element(Int(u32(outputs + 4)), ofVector: target(field(0, of: subgraph)))
        let quantization = target(field(4, of: tensor))
        let scales = target(field(2, of: quantization))
        precondition(u32(scales) >= 1, "per-tensor quantization has one scale")
        return scales + 4
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
}
