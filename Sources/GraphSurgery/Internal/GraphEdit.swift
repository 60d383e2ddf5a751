import Foundation
import TFLiteMetadata
import TasksCommon

/// Writes a base cut after one of its operators with new tables appended, without
/// re-encoding the base: as `ModelMetadataWriter` does, a new root table is written in front
/// of the old FlatBuffer and refers into it (operator codes, tensors, operators, buffers,
/// metadata and signatures are kept as they are); only the subgraph's lists, the operator
/// codes, the buffers and the signatures' outputs are new.
struct GraphEdit {
    let graph: ModelGraph
    /// The last base operator kept; those after it are dropped.
    let lastKept: Int
    /// The edited model's one output and the name its signatures give it.
    var output: Int32 = 0
    var outputName: String

    /// The edited model: `build` appends the new tables and returns the output tensor.
    /// - Throws: `TasksError` invalidArgument for a model that is not a valid TFLite model, has
    ///   fields newer than this schema, keeps buffers outside the FlatBuffer, or would pass 2 GiB;
    ///   and `build`'s errors.
    static func write(
        _ model: Data, graph: ModelGraph, lastKept: Int, outputName: String,
        build: (inout GraphAppendix) throws(TasksError) -> Int32
    ) throws(TasksError) -> Data {
        let invalid = "The base model is not a valid TFLite model"
        let root = try decodingModel(model, invalid: invalid, subject: "the base model") {
            try FlatBuffer(model).rootTable("Model")
        }
        let (codes, buffers) = try decodingFlatBuffer(invalid: invalid, subject: "the base model") {
            (
                try root.tables(Schema.Model.operatorCodes, "operator_codes").count,
                try root.tables(Schema.Model.buffers, "buffers").count
            )
        }
        var appendix = GraphAppendix(codeBase: codes, bufferBase: max(buffers, 1), tensorBase: graph.tensors.count)
        var edit = GraphEdit(graph: graph, lastKept: lastKept, outputName: outputName)
        edit.output = try build(&appendix)
        let newRoot = try decodingFlatBuffer(invalid: invalid, subject: "the base model") {
            try edit.root(of: root, appendix: appendix)
        }
        let prefix = FlatBufferValue.prefix(root: newRoot, identifier: "TFL3", followingAlignment: 64)
        let end = try ModelSplicer.flatBufferEnd(of: model)
        guard prefix.count + end <= ModelSplicer.maximumFlatBufferSize else {
            throw .invalidArgument("The edited model would pass a FlatBuffer's limit of 2 GiB.")
        }
        return Data(prefix) + model[model.startIndex..<(model.startIndex + end)]
    }

    /// The new `Model` table.
    private func root(of model: FlatBufferTable, appendix: GraphAppendix) throws -> FlatBufferValue {
        guard !model.hasField(atOrAfter: Schema.Model.fieldCount) else {
            throw TasksError.invalidArgument(
                "The base model has fields newer than the TFLite schema this writer knows; it was not changed.")
        }
        var fields: [Int: FlatBufferValue] = [Schema.Model.version: .uint32(try model.uint32(Schema.Model.version, "version"))]
        for id in 3..<Schema.Model.fieldCount where id != Schema.Model.buffers && id != Schema.Model.signatureDefs {
            if let target = try model.referenceTarget(id, "field \(id)") { fields[id] = .following(target) }
        }
        let codes = try model.tables(Schema.Model.operatorCodes, "operator_codes")
        let buffers = try model.tables(Schema.Model.buffers, "buffers")
        for (index, buffer) in buffers.enumerated() where try buffer.uint64(Schema.Buffer.offset, "offset") > 1 {
            throw TasksError.invalidArgument(
                "Model.buffers[\(index)] is stored outside the FlatBuffer (a model over 2 GB); this writer does not move such buffers."
            )
        }
        fields[Schema.Model.operatorCodes] = .tables(codes.map { .following($0.position) } + appendix.operatorCodes)
        // Buffer 0 is the empty buffer tensors without data refer to.
        fields[Schema.Model.buffers] = .tables(
            (buffers.isEmpty ? [.table([:])] : buffers.map { .following($0.position) }) + appendix.buffers)
        let subgraph = try model.tables(Schema.Model.subgraphs, "subgraphs")[0]
        fields[Schema.Model.subgraphs] = .tables([try newSubgraph(subgraph, appendix: appendix)])
        let signatures = try model.tables(Schema.Model.signatureDefs, "signature_defs")
        if !signatures.isEmpty { fields[Schema.Model.signatureDefs] = .tables(try signatures.map(newSignature)) }
        return .table(fields)
    }

    private func newSubgraph(_ subgraph: FlatBufferTable, appendix: GraphAppendix) throws -> FlatBufferValue {
        guard !subgraph.hasField(atOrAfter: Schema.SubGraph.fieldCount) else {
            throw TasksError.invalidArgument(
                "The base model's subgraph has fields newer than the TFLite schema this writer knows.")
        }
        let tensors = graph.tensorPositions.map { FlatBufferValue.following($0) } + appendix.tensors
        let operators = graph.operations[...lastKept].map { FlatBufferValue.following($0.position) } + appendix.operators
        var fields: [Int: FlatBufferValue] = [
            Schema.SubGraph.tensors: .tables(tensors), Schema.SubGraph.operators: .tables(operators),
            Schema.SubGraph.outputs: .int32s([output]),
        ]
        for id in [Schema.SubGraph.inputs, Schema.SubGraph.name] {
            if let target = try subgraph.referenceTarget(id, "field \(id)") { fields[id] = .following(target) }
        }
        return .table(fields)
    }

    /// A signature with the same inputs and key, whose one output is the edited model's.
    private func newSignature(_ signature: FlatBufferTable) throws -> FlatBufferValue {
        var fields: [Int: FlatBufferValue] = [
            Schema.SignatureDef.outputs: .tables([
                .table([
                    Schema.SignatureDef.tensorMapName: .string(outputName),
                    Schema.SignatureDef.tensorMapIndex: .uint32(UInt32(output)),
                ])
            ]),
            Schema.SignatureDef.subgraphIndex: .uint32(try signature.uint32(Schema.SignatureDef.subgraphIndex, "subgraph_index")),
        ]
        for id in [Schema.SignatureDef.inputs, Schema.SignatureDef.signatureKey] {
            if let target = try signature.referenceTarget(id, "field \(id)") { fields[id] = .following(target) }
        }
        return .table(fields)
    }
}
