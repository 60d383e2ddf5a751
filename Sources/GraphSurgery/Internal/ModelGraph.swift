import Foundation
import TFLiteMetadata
import TasksCommon

/// The graph of a model's only subgraph, as the graph editor reads it: tensors, operators in
/// execution order (TFLite stores them topologically sorted), and the builtin code of each.
struct ModelGraph {
    /// One operator: its builtin code (`Schema.BuiltinOperator`), tensor indexes (-1: none),
    /// and its table's position for copying it.
    struct Operation {
        let builtinCode: Int32
        let inputs: [Int32]
        let outputs: [Int32]
        let position: Int
    }

    let tensors: [ModelTensor]
    /// The tensor tables' positions, by index.
    let tensorPositions: [Int]
    let operations: [Operation]
    let inputs: [Int32]
    let outputs: [Int32]

    /// Reads subgraph 0 of `model`.
    init(model: FlatBufferTable) throws(FlatBufferError) {
        let codes = try model.tables(Schema.Model.operatorCodes, "operator_codes").map { code throws(FlatBufferError) in
            let deprecated = Int32(
                Int8(bitPattern: try code.uint8(Schema.OperatorCode.deprecatedBuiltinCode, "deprecated_builtin_code")))
            let builtin = Int32(bitPattern: try code.uint32(Schema.OperatorCode.builtinCode, "builtin_code"))
            return max(deprecated, builtin)
        }
        guard let subgraph = try model.tables(Schema.Model.subgraphs, "subgraphs").first else {
            throw FlatBufferError(path: "Model.subgraphs", reason: "the model has no subgraph")
        }
        let tensorTables = try subgraph.tables(Schema.SubGraph.tensors, "tensors")
        tensors = try tensorTables.map { table throws(FlatBufferError) in try ModelTensor(table: table) }
        tensorPositions = tensorTables.map(\.position)
        inputs = try subgraph.int32s(Schema.SubGraph.inputs, "inputs")
        outputs = try subgraph.int32s(Schema.SubGraph.outputs, "outputs")
        operations = try subgraph.tables(Schema.SubGraph.operators, "operators").enumerated().map {
            index, table throws(FlatBufferError) in
            let opcode = Int(try table.uint32(Schema.Operator.opcodeIndex, "opcode_index"))
            guard opcode < codes.count else {
                throw FlatBufferError(
                    path: "operators[\(index)].opcode_index", reason: "\(opcode) is not one of the \(codes.count) operator codes")
            }
            return Operation(
                builtinCode: codes[opcode], inputs: try table.int32s(Schema.Operator.inputs, "inputs"),
                outputs: try table.int32s(Schema.Operator.outputs, "outputs"), position: table.position)
        }
    }

    /// The index of the operator that writes `tensor`, or nil for an input or a constant.
    func producer(of tensor: Int32) -> Int? {
        operations.lastIndex { $0.outputs.contains(tensor) }
    }
}
