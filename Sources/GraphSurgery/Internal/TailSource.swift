import Foundation
import TFLiteMetadata
import TasksCommon

/// A base model opened for reading its tail: the graph, the tables of its operators, tensors
/// and buffers, and which operator computes each tensor.
///
/// Not `Sendable` (it holds a `FlatBuffer`); made per call. Its methods throw `FlatBufferError`
/// for malformed bytes and `TasksError` for what training does not support; callers run them
/// inside `decodingModel` so both reach the user as invalidArgument.
struct TailSource {
    let graph: ModelGraph
    let operators: [FlatBufferTable]
    let tensorTables: [FlatBufferTable]
    let buffers: [FlatBufferTable]
    /// The operator that writes each tensor (nil for inputs and constants), by tensor index.
    let producers: [Int?]

    /// Opens subgraph 0 of `model`.
    /// - Throws: `TasksError` invalidArgument for bytes that are not a TFLite model, or a model
    ///   with several subgraphs.
    static func open(_ model: Data) throws(TasksError) -> TailSource {
        try decodingModel(model, invalid: "The base model is not a valid TFLite model", subject: "the base model") {
            let root = try FlatBuffer(model).rootTable("Model")
            let subgraphs = try root.tables(Schema.Model.subgraphs, "subgraphs")
            guard subgraphs.count == 1 else {
                throw TasksError.invalidArgument(
                    "The base model has \(subgraphs.count) subgraphs; a base has one (as MediaPipe's tasks need).")
            }
            return try TailSource(root: root, subgraph: subgraphs[0])
        }
    }

    private init(root: FlatBufferTable, subgraph: FlatBufferTable) throws {
        graph = try ModelGraph(model: root)
        operators = try subgraph.tables(Schema.SubGraph.operators, "operators")
        tensorTables = try subgraph.tables(Schema.SubGraph.tensors, "tensors")
        buffers = try root.tables(Schema.Model.buffers, "buffers")
        var producers = [Int?](repeating: nil, count: graph.tensors.count)
        for (index, operation) in graph.operations.enumerated() {
            for output in operation.outputs where output >= 0 && Int(output) < producers.count {
                producers[Int(output)] = index
            }
        }
        self.producers = producers
    }

    /// "tensor 77 ('name')", for messages.
    func label(_ tensor: Int) -> String {
        guard graph.tensors.indices.contains(tensor), !graph.tensors[tensor].name.isEmpty else { return "tensor \(tensor)" }
        return "tensor \(tensor) ('\(graph.tensors[tensor].name)')"
    }

    /// "operator 25 (DEPTHWISE_CONV_2D, writing tensor 79 ('name'))", for messages.
    func label(operator index: Int) -> String {
        let operation = graph.operations[index]
        let output = operation.outputs.first.map { ", writing \(label(Int($0)))" } ?? ""
        return "operator \(index) (\(Schema.BuiltinOperator.name(of: operation.builtinCode))\(output))"
    }

    /// Throws unless `tensor` is an index of this subgraph.
    func checkTensor(_ tensor: Int, role: String) throws(TasksError) {
        guard graph.tensors.indices.contains(tensor) else {
            throw .invalidArgument(
                "The \(role) tensor \(tensor) does not exist: the base model has \(graph.tensors.count) tensors.")
        }
    }

    /// Whether `tensor` holds constant data (weights, an axis): no operator writes it and it is
    /// not one of the model's inputs.
    func isConstant(_ tensor: Int32) -> Bool {
        tensor >= 0 && Int(tensor) < producers.count && producers[Int(tensor)] == nil && !graph.inputs.contains(tensor)
    }

    /// The operator that computes `tensor`, or -1 for a model input (earlier than any operator);
    /// nil for a constant or an absent optional input (-1).
    func computedAt(_ tensor: Int32) -> Int? {
        guard tensor >= 0, Int(tensor) < producers.count else { return nil }
        if let producer = producers[Int(tensor)] { return producer }
        return graph.inputs.contains(tensor) ? -1 : nil
    }

    /// The raw bytes of a constant tensor's buffer (empty when it has none).
    func data(of tensor: Int) throws -> Data {
        let buffer = Int(try tensorTables[tensor].uint32(Schema.Tensor.buffer, "buffer"))
        guard buffer > 0 else { return Data() }
        guard buffer < buffers.count else {
            throw FlatBufferError(
                path: "tensors[\(tensor)].buffer", reason: "\(buffer) is not one of the \(buffers.count) buffers")
        }
        return try buffers[buffer].vector(Schema.Buffer.data, "data", elementSize: 1)?.bytes() ?? Data()
    }

    /// The axis along which a per-channel tensor's scales apply (`quantized_dimension`).
    func quantizedDimension(of tensor: Int) throws -> Int {
        let quantization = try tensorTables[tensor].table(Schema.Tensor.quantization, "quantization")
        return Int(try quantization?.uint32(Schema.QuantizationParameters.quantizedDimension, "quantized_dimension") ?? 0)
    }
}
