import Foundation
import TasksCommon

/// A trained dense layer to put on a model's features: `probabilities = softmax(W · x + b)`.
package struct DenseHead: Sendable {
    /// W, `classCount` rows of `featureCount` values (row-major, as TFLite's `FULLY_CONNECTED`
    /// weights `[classes, features]`).
    package let weights: [Float]
    /// b, one per class.
    package let bias: [Float]

    package var classCount: Int { bias.count }
    package var featureCount: Int { bias.isEmpty ? 0 : weights.count / bias.count }

    /// - Precondition: `weights.count` is a multiple of `bias.count`.
    package init(weights: [Float], bias: [Float]) {
        precondition(!bias.isEmpty && weights.count % bias.count == 0, "weights must be [classes, features]")
        self.weights = weights
        self.bias = bias
    }
}

/// Graph edits for training a classifier on a frozen base: find the base's feature tensor,
/// write the base cut there (to compute the features), and write it cut there with a new head (`DEQUANTIZE` after a quantized feature,
/// `FULLY_CONNECTED`, `SOFTMAX`) as its one output.
///
/// The base's bytes are not re-encoded: as `ModelMetadataWriter` does, a new root table is
/// written in front of the old FlatBuffer and refers into it (operator codes, tensors,
/// operators, buffers, metadata and signatures are kept as they are); only the subgraph's
/// lists, the operator codes, the buffers and the signatures' outputs are new. Operators after
/// the feature tensor's producer are dropped (a classifier's old logits and softmax).
package enum ClassifierHeadAppender {
    /// The feature tensor of a base: for a classifier (its output comes from a `SOFTMAX`,
    /// through `RESHAPE`, `SQUEEZE`, `DEQUANTIZE` or `QUANTIZE`), the input of the last
    /// `FULLY_CONNECTED` or 1×1 `CONV_2D` before it (its pre-logits); otherwise (an embedder, a
    /// feature extractor) the model's output.
    /// - Returns: the tensor's index and description.
    /// - Throws: `TasksError` invalidArgument for a model that is not a valid TFLite model or
    ///   does not have one subgraph with one output.
    package static func featureTensor(of model: Data) throws(TasksError) -> (index: Int, tensor: ModelTensor) {
        let graph = try graph(of: model)
        let output = graph.outputs[0]
        var tensor = output
        var passedSoftmax = false
        while let producer = graph.producer(of: tensor), let first = graph.operations[producer].inputs.first {
            let operation = graph.operations[producer]
            switch operation.builtinCode {
            case Schema.BuiltinOperator.softmax:
                passedSoftmax = true
            case Schema.BuiltinOperator.reshape, Schema.BuiltinOperator.squeeze, Schema.BuiltinOperator.dequantize,
                Schema.BuiltinOperator.quantize:
                break
            case Schema.BuiltinOperator.fullyConnected where passedSoftmax:
                return (Int(first), graph.tensors[Int(first)])
            case Schema.BuiltinOperator.conv2D where passedSoftmax && isPointwise(operation, graph):
                return (Int(first), graph.tensors[Int(first)])
            default:
                return (Int(output), graph.tensors[Int(output)])
            }
            tensor = first
        }
        return (Int(output), graph.tensors[Int(output)])
    }

    /// The tensor named `name` in the model's subgraph, or with that index when `name` is a
    /// number (`train --feature-tensor`).
    /// - Throws: `TasksError` invalidArgument when no tensor has that name or index, listing
    ///   the outputs of the last operators as likely choices.
    package static func tensor(named name: String, in model: Data) throws(TasksError) -> (index: Int, tensor: ModelTensor) {
        let graph = try graph(of: model)
        if let index = graph.tensors.firstIndex(where: { $0.name == name }) ?? Int(name), graph.tensors.indices.contains(index) {
            return (index, graph.tensors[index])
        }
        let candidates = graph.operations.suffix(4).flatMap(\.outputs).compactMap { index in
            graph.tensors.indices.contains(Int(index)) ? "'\(graph.tensors[Int(index)].name)' (\(index))" : nil
        }
        throw .invalidArgument(
            "The base model has no tensor named '\(name)' (nor with that index); the last operators write "
                + candidates.joined(separator: ", ") + ".")
    }

    /// The model cut at tensor `feature` with `head` appended; its one output is the head's
    /// probabilities `[1, classes]` FLOAT32, named "probabilities".
    /// - Throws: `TasksError` invalidArgument naming the problem: a model that is not a valid
    ///   TFLite model, has several subgraphs or fields newer than this schema, keeps weights
    ///   outside the FlatBuffer; a feature tensor out of range, produced by no operator, not of
    ///   one image (`[1, ...]`), not FLOAT32, UINT8 or INT8, or whose size is not the head's.
    /// - Parameter quantizedOutput: end with a `QUANTIZE` to UINT8 (scale 1/256, zero point 0,
    ///   as quantized MobileNets give their scores): the scores are within 1/256 of the float
    ///   model's (a score of 1 becomes 255/256).
    package static func appending(
        _ head: DenseHead, to model: Data, at feature: Int, quantizedOutput: Bool = false
    ) throws(TasksError) -> Data {
        try edited(model, at: feature, head: head, quantizedOutput: quantizedOutput)
    }

    /// The model cut at tensor `feature`, which becomes its one output (the operators after its
    /// producer dropped): the base as a feature extractor, for computing the features a head is
    /// trained on. The base's metadata is kept (an embedder reads its input normalization).
    /// - Throws: as `appending(_:to:at:)`, but a feature of any size.
    package static func cutting(_ model: Data, at feature: Int) throws(TasksError) -> Data {
        try edited(model, at: feature, head: nil, quantizedOutput: false)
    }

    private static func edited(
        _ model: Data, at feature: Int, head: DenseHead?, quantizedOutput: Bool
    ) throws(TasksError) -> Data {
        let root = try decodingModel(model, invalid: "The base model is not a valid TFLite model", subject: "the base model") {
            try FlatBuffer(model).rootTable("Model")
        }
        let graph = try graph(of: model)
        let edit = try HeadEdit(head: head, graph: graph, feature: feature, quantizedOutput: quantizedOutput)
        let newRoot = try decodingFlatBuffer(invalid: "The base model is not a valid TFLite model", subject: "the base model") {
            try edit.root(of: root)
        }
        let prefix = FlatBufferValue.prefix(root: newRoot, identifier: "TFL3", followingAlignment: 64)
        let end = try ModelSplicer.flatBufferEnd(of: model)
        guard prefix.count + end <= ModelSplicer.maximumFlatBufferSize else {
            throw .invalidArgument("The model with its new head would pass a FlatBuffer's limit of 2 GiB.")
        }
        return Data(prefix) + model[model.startIndex..<(model.startIndex + end)]
    }

    private static func graph(of model: Data) throws(TasksError) -> ModelGraph {
        let graph = try decodingModel(model, invalid: "The base model is not a valid TFLite model", subject: "the base model") {
            let root = try FlatBuffer(model).rootTable("Model")
            let count = try root.tables(Schema.Model.subgraphs, "subgraphs").count
            guard count == 1 else {
                throw TasksError.invalidArgument(
                    "The base model has \(count) subgraphs; a base has one (as MediaPipe's tasks need).")
            }
            return try ModelGraph(model: root)
        }
        guard graph.outputs.count == 1, graph.outputs[0] >= 0, Int(graph.outputs[0]) < graph.tensors.count else {
            throw .invalidArgument(
                "The base model has \(graph.outputs.count) outputs; a base has one (its features or its scores).")
        }
        return graph
    }

    /// Whether a `CONV_2D`'s filter (input 1, `[out, height, width, in]`) is 1×1.
    private static func isPointwise(_ operation: ModelGraph.Operation, _ graph: ModelGraph) -> Bool {
        guard operation.inputs.count > 1, operation.inputs[1] >= 0, Int(operation.inputs[1]) < graph.tensors.count else {
            return false
        }
        let shape = graph.tensors[Int(operation.inputs[1])].shape
        return shape.count == 4 && shape[1] == 1 && shape[2] == 1
    }
}

/// The new tables of one edit (a cut, with or without a head), with the indexes they take
/// after the base's.
private struct HeadEdit {
    /// The head to append; nil for a cut alone.
    let head: DenseHead?
    let graph: ModelGraph
    let feature: Int32
    /// The producer of the feature tensor: the operators after it are dropped.
    let lastKept: Int
    let quantized: Bool
    /// Whether the head ends with a QUANTIZE to UINT8.
    let quantizedOutput: Bool

    init(head: DenseHead?, graph: ModelGraph, feature: Int, quantizedOutput: Bool) throws(TasksError) {
        guard feature >= 0, feature < graph.tensors.count else {
            throw .invalidArgument("Tensor \(feature) does not exist: the base model has \(graph.tensors.count) tensors.")
        }
        let tensor = graph.tensors[feature]
        let name = tensor.name.isEmpty ? "tensor \(feature)" : "tensor \(feature) (\(tensor.name))"
        guard let producer = graph.producer(of: Int32(feature)) else {
            throw .invalidArgument("\(name) is an input or a constant of the base model, not a feature its layers compute.")
        }
        guard tensor.shape.first == 1 else {
            throw .invalidArgument("\(name) has shape \(tensor.shape); features of one image have shape [1, ...].")
        }
        let size = tensor.shape.reduce(1) { $0 * Int($1) }
        if let head, size != head.featureCount {
            throw .invalidArgument("\(name) has \(size) values; the head was trained on \(head.featureCount) features.")
        }
        guard ["FLOAT32", "UINT8", "INT8"].contains(tensor.typeName) else {
            throw .invalidArgument("\(name) is \(tensor.typeName); features must be FLOAT32, UINT8 or INT8.")
        }
        self.head = head
        self.graph = graph
        self.feature = Int32(feature)
        lastKept = producer
        quantized = tensor.typeName != "FLOAT32"
        self.quantizedOutput = head != nil && quantizedOutput
    }

    /// The new `Model` table.
    func root(of model: FlatBufferTable) throws -> FlatBufferValue {
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
        fields[Schema.Model.operatorCodes] = .tables(codes.map { .following($0.position) } + newOperatorCodes)
        fields[Schema.Model.buffers] = .tables(
            (buffers.isEmpty ? [.table([:])] : buffers.map { .following($0.position) })
                + (head.map { [floatBuffer($0.weights), floatBuffer($0.bias)] } ?? []))
        let subgraph = try model.tables(Schema.Model.subgraphs, "subgraphs")[0]
        fields[Schema.Model.subgraphs] = .tables([
            try newSubgraph(subgraph, codeBase: codes.count, bufferBase: max(buffers.count, 1))
        ])
        let signatures = try model.tables(Schema.Model.signatureDefs, "signature_defs")
        if !signatures.isEmpty { fields[Schema.Model.signatureDefs] = .tables(try signatures.map(newSignature)) }
        return .table(fields)
    }

    /// Tensor indexes of the new tensors: [dequantized,] weights, bias, logits, probabilities.
    private var newTensorBase: Int32 { Int32(graph.tensors.count) }
    private var floatFeature: Int32 { quantized ? newTensorBase : feature }
    private var weightsTensor: Int32 { newTensorBase + (quantized ? 1 : 0) }
    private var probabilities: Int32 { weightsTensor + 3 }
    /// The edited model's one output: the features (a cut), the probabilities, or their UINT8 form.
    private var output: Int32 { head == nil ? feature : quantizedOutput ? probabilities + 1 : probabilities }

    private var newOperatorCodes: [FlatBufferValue] {
        guard head != nil else { return [] }
        var codes = [Schema.BuiltinOperator.fullyConnected, Schema.BuiltinOperator.softmax].map {
            Self.operatorCode($0, version: 1)
        }
        // DEQUANTIZE of int8 is version 2 of the kernel.
        let dequantizeVersion: Int32 = graph.tensors[Int(feature)].typeName == "INT8" ? 2 : 1
        if quantized { codes.append(Self.operatorCode(Schema.BuiltinOperator.dequantize, version: dequantizeVersion)) }
        if quantizedOutput { codes.append(Self.operatorCode(Schema.BuiltinOperator.quantize, version: 1)) }
        return codes
    }

    private static func operatorCode(_ code: Int32, version: Int32) -> FlatBufferValue {
        .table([
            Schema.OperatorCode.deprecatedBuiltinCode: .uint8(UInt8(code)), Schema.OperatorCode.version: .uint32(UInt32(version)),
            Schema.OperatorCode.builtinCode: .uint32(UInt32(code)),
        ])
    }

    private func floatBuffer(_ values: [Float]) -> FlatBufferValue {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 4)
        for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        return .table([Schema.Buffer.data: .alignedBytes(bytes)])
    }

    private func newSubgraph(_ subgraph: FlatBufferTable, codeBase: Int, bufferBase: Int) throws -> FlatBufferValue {
        guard !subgraph.hasField(atOrAfter: Schema.SubGraph.fieldCount) else {
            throw TasksError.invalidArgument(
                "The base model's subgraph has fields newer than the TFLite schema this writer knows.")
        }
        var tensors = graph.tensorPositions.map { FlatBufferValue.following($0) }
        var operators = graph.operations[...lastKept].map { FlatBufferValue.following($0.position) }
        if let head {
            appendHead(head, tensors: &tensors, operators: &operators, codeBase: codeBase, bufferBase: bufferBase)
        }
        var fields: [Int: FlatBufferValue] = [
            Schema.SubGraph.tensors: .tables(tensors), Schema.SubGraph.operators: .tables(operators),
            Schema.SubGraph.outputs: .int32s([output]),
        ]
        for id in [Schema.SubGraph.inputs, Schema.SubGraph.name] {
            if let target = try subgraph.referenceTarget(id, "field \(id)") { fields[id] = .following(target) }
        }
        return .table(fields)
    }

    /// The head's tensors and operators, after the base's.
    private func appendHead(
        _ head: DenseHead, tensors: inout [FlatBufferValue], operators: inout [FlatBufferValue], codeBase: Int, bufferBase: Int
    ) {
        let classes = Int32(head.classCount)
        if quantized { tensors.append(Self.tensor("features/dequantized", shape: graph.tensors[Int(feature)].shape)) }
        tensors += [
            Self.tensor("head/weights", shape: [classes, Int32(head.featureCount)], buffer: bufferBase),
            Self.tensor("head/bias", shape: [classes], buffer: bufferBase + 1),
            Self.tensor("head/logits", shape: [1, classes]),
            Self.tensor(quantizedOutput ? "probabilities/float" : "probabilities", shape: [1, classes]),
        ]
        if quantizedOutput { tensors.append(Self.quantizedScores(shape: [1, classes])) }
        // The codes' order in `newOperatorCodes`.
        let fullyConnected = UInt32(codeBase), softmax = UInt32(codeBase + 1), dequantize = UInt32(codeBase + 2)
        let quantize = UInt32(codeBase + (quantized ? 3 : 2))
        if quantized { operators.append(Self.operation(dequantize, inputs: [feature], outputs: [floatFeature])) }
        operators += [
            Self.operation(
                fullyConnected, inputs: [floatFeature, weightsTensor, weightsTensor + 1], outputs: [weightsTensor + 2],
                options: (Schema.BuiltinOptions.fullyConnectedOptions, .table([:]))),
            Self.operation(
                softmax, inputs: [weightsTensor + 2], outputs: [probabilities],
                options: (Schema.BuiltinOptions.softmaxOptions, .table([Schema.BuiltinOptions.softmaxBeta: .float(1)]))),
        ]
        if quantizedOutput { operators.append(Self.operation(quantize, inputs: [probabilities], outputs: [probabilities + 1])) }
    }

    /// The UINT8 scores: scale 1/256, zero point 0.
    private static func quantizedScores(shape: [Int32]) -> FlatBufferValue {
        .table([
            Schema.Tensor.shape: .int32s(shape), Schema.Tensor.type: .uint8(Schema.TensorType.uint8),
            Schema.Tensor.buffer: .uint32(0), Schema.Tensor.name: .string("probabilities"),
            Schema.Tensor.quantization: .table([
                Schema.QuantizationParameters.scale: .floats([1.0 / 256]), Schema.QuantizationParameters.zeroPoint: .int64s([0]),
            ]),
        ])
    }

    private static func tensor(_ name: String, shape: [Int32], buffer: Int = 0) -> FlatBufferValue {
        .table([
            Schema.Tensor.shape: .int32s(shape), Schema.Tensor.type: .uint8(Schema.TensorType.float32),
            Schema.Tensor.buffer: .uint32(UInt32(buffer)), Schema.Tensor.name: .string(name),
        ])
    }

    private static func operation(
        _ opcode: UInt32, inputs: [Int32], outputs: [Int32], options: (type: UInt8, table: FlatBufferValue)? = nil
    ) -> FlatBufferValue {
        var fields: [Int: FlatBufferValue] = [
            Schema.Operator.opcodeIndex: .uint32(opcode), Schema.Operator.inputs: .int32s(inputs),
            Schema.Operator.outputs: .int32s(outputs),
        ]
        if let options {
            fields[Schema.Operator.builtinOptionsType] = .uint8(options.type)
            fields[Schema.Operator.builtinOptions] = options.table
        }
        return .table(fields)
    }

    /// A signature with the same inputs and key, whose one output is the edited model's.
    private func newSignature(_ signature: FlatBufferTable) throws -> FlatBufferValue {
        var fields: [Int: FlatBufferValue] = [
            Schema.SignatureDef.outputs: .tables([
                .table([
                    Schema.SignatureDef.tensorMapName: .string(head == nil ? "features" : "probabilities"),
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
