import Foundation
import TFLiteMetadata
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
    /// `FULLY_CONNECTED` or 1×1 `CONV_2D` before it (its pre-logits); the same for a classifier
    /// that ends at its logits, a `FULLY_CONNECTED` or 1×1 `CONV_2D` on a global pool
    /// (`AVERAGE_POOL_2D` or `MEAN`: `mobilenet_v2_1.0_224_quant.tflite`'s 1,001 logits of its
    /// 1,280 pooled features); otherwise (an embedder, a feature extractor) the model's output.
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
            case Schema.BuiltinOperator.fullyConnected where passedSoftmax || isPooled(first, graph):
                return (Int(first), graph.tensors[Int(first)])
            case Schema.BuiltinOperator.conv2D
            where isPointwise(operation, graph) && (passedSoftmax || isPooled(first, graph)):
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
        let graph = try graph(of: model)
        let point = try CutPoint(graph: graph, tensor: feature, noun: "feature")
        if let head, point.size != head.featureCount {
            throw .invalidArgument(
                "\(point.label) has \(point.size) values; the head was trained on \(head.featureCount) features.")
        }
        return try GraphEdit.write(
            model, graph: graph, lastKept: point.producer, outputName: head == nil ? "features" : "probabilities"
        ) { appendix in
            guard let head else { return point.tensor }
            let input = point.floatInput(in: &appendix, name: "features/dequantized")
            let logits = appendix.fullyConnected(
                input, weights: head.weights, bias: head.bias, activation: .none, outputShape: [1, head.classCount],
                name: "head", output: "head/logits")
            let probabilities = appendix.softmax(
                logits, classes: head.classCount, name: quantizedOutput ? "probabilities/float" : "probabilities")
            return quantizedOutput
                ? appendix.quantizeScores(probabilities, classes: head.classCount, name: "probabilities") : probabilities
        }
    }

    /// The graph of a one-subgraph, one-output base.
    /// - Throws: `TasksError` invalidArgument naming what the model lacks.
    static func graph(of model: Data) throws(TasksError) -> ModelGraph {
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

    /// Whether `tensor` is a global pool's output (`AVERAGE_POOL_2D` or `MEAN`), as a
    /// classifier's pre-logits are.
    private static func isPooled(_ tensor: Int32, _ graph: ModelGraph) -> Bool {
        guard let producer = graph.producer(of: tensor) else { return false }
        let code = graph.operations[producer].builtinCode
        return code == Schema.BuiltinOperator.averagePool2D || code == Schema.BuiltinOperator.mean
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
