import Foundation
import TasksCommon

/// One input or output tensor of a model's first subgraph, as the TFLite FlatBuffer
/// declares it (`tflite::Tensor`): what `inspect` shows and what the metadata writer checks.
package struct ModelTensor: Equatable, Sendable {
    /// `name`; empty when absent.
    package var name: String
    /// `type`: the `tflite::TensorType` value (0 FLOAT32, 3 UINT8, 9 INT8, ...).
    package var type: Int8
    /// `shape`, outermost first.
    package var shape: [Int32]
    /// `quantization.scale`; empty when the tensor is not quantized.
    package var scale: [Float]
    /// `quantization.zero_point`; empty when the tensor is not quantized.
    package var zeroPoint: [Int64]

    /// The schema's name of `type`, as the TFLite schema spells it ("FLOAT32", "UINT8", "INT8").
    package var typeName: String {
        let names = [
            "FLOAT32", "FLOAT16", "INT32", "UINT8", "INT64", "STRING", "BOOL", "INT16", "COMPLEX64", "INT8",
            "FLOAT64", "COMPLEX128", "UINT64", "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4",
        ]
        return type >= 0 && Int(type) < names.count ? names[Int(type)] : "TYPE(\(type))"
    }

    /// The element count of the last dimension (the categories of a classifier output); 0 for a scalar.
    package var lastDimension: Int { shape.last.map(Int.init) ?? 0 }

    package init(table: FlatBufferTable) throws(FlatBufferError) {
        name = try table.string(Schema.Tensor.name, "name") ?? ""
        type = Int8(bitPattern: try table.uint8(Schema.Tensor.type, "type"))
        shape = try table.int32s(Schema.Tensor.shape, "shape")
        let quantization = try table.table(Schema.Tensor.quantization, "quantization")
        scale = try quantization?.floats(Schema.QuantizationParameters.scale, "scale") ?? []
        zeroPoint = try quantization?.int64s(Schema.QuantizationParameters.zeroPoint, "zero_point") ?? []
    }

    /// The input and output tensors of subgraph 0 of a model, in `SubGraph.inputs` /
    /// `SubGraph.outputs` order (the order of the tensor metadata).
    /// - Parameter bytes: the whole `.tflite` file.
    /// - Throws: `TasksError` invalidArgument "The model is not a valid TFLite model: <field>:
    ///   <why>" when an offset, length or tensor index is out of range.
    package static func tensors(inModel bytes: Data) throws(TasksError) -> (inputs: [ModelTensor], outputs: [ModelTensor]) {
        try decodingModel(bytes, invalid: "The model is not a valid TFLite model", subject: "the model's tensors") {
            try tensors(of: FlatBuffer(bytes).rootTable("Model"))
        }
    }

    /// The input and output tensors of subgraph 0 of the model FlatBuffer `model`, in
    /// `SubGraph.inputs` / `SubGraph.outputs` order (the order of the tensor metadata).
    package static func tensors(of model: FlatBufferTable) throws -> (inputs: [ModelTensor], outputs: [ModelTensor]) {
        guard let subgraph = try model.tables(Schema.Model.subgraphs, "subgraphs").first else { return ([], []) }
        guard let tensors = try subgraph.vector(Schema.SubGraph.tensors, "tensors", elementSize: 4) else { return ([], []) }
        func resolve(_ indices: [Int32], _ field: String) throws -> [ModelTensor] {
            try indices.map { index in
                guard index >= 0, Int(index) < tensors.count else {
                    throw FlatBufferError(
                        path: "\(subgraph.path).\(field)",
                        reason: "tensor index \(index) is outside the \(tensors.count) tensors of the subgraph")
                }
                return try ModelTensor(table: tensors.table(at: Int(index)))
            }
        }
        return (
            try resolve(subgraph.int32s(Schema.SubGraph.inputs, "inputs"), "inputs"),
            try resolve(subgraph.int32s(Schema.SubGraph.outputs, "outputs"), "outputs")
        )
    }
}
