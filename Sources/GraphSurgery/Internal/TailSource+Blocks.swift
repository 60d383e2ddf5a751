import Foundation
import TFLiteMetadata
import TasksCommon

extension TailSource {
    /// The tensors a tail can start at before tensor `feature`, nearest the features first.
    ///
    /// A boundary is the one output `T` of an operator `q` when every operator after `q` (up to
    /// the feature's producer) reads only tensors computed at or after `q`, some reads `T`, and
    /// the next operator has weights (a constant of rank 2 or more), so weightless operators
    /// (pools, MEAN, RESHAPE, SOFTMAX) join the block before them. Two outputs are never
    /// boundaries, so an inverted residual stays whole: a `DEPTHWISE_CONV_2D`'s, and that of a
    /// `CONV_2D` with an activation on a linear input (an `ADD`'s or an unactivated
    /// convolution's output) that a `DEPTHWISE_CONV_2D` reads next (the block's expansion).
    /// The model's input and `feature` itself are not boundaries.
    func blockStarts(feature: Int) throws -> [Int] {
        guard let last = producers[feature] else { throw notComputed(feature, role: "feature") }
        var earliest = Int.max
        var starts: [Int] = []
        for next in stride(from: last, through: 1, by: -1) {
            // `earliest`: the first operator whose output operators next...last read.
            earliest = min(earliest, graph.operations[next].inputs.compactMap(computedAt).min() ?? Int.max)
            let producer = next - 1
            let outputs = graph.operations[producer].outputs
            guard earliest >= producer, outputs.count == 1, Int(outputs[0]) != feature else { continue }
            let tensor = outputs[0]
            let read = graph.operations[next...last].contains { $0.inputs.contains(tensor) }
            if read, try isBlockStart(producer: producer, next: next) { starts.append(Int(tensor)) }
        }
        return starts
    }

    /// Whether the output of operator `producer`, read by operator `next` onward, may start a block.
    private func isBlockStart(producer: Int, next: Int) throws -> Bool {
        let operation = graph.operations[producer]
        guard hasWeights(next), operation.builtinCode != Schema.BuiltinOperator.depthwiseConv2D else { return false }
        guard operation.builtinCode == Schema.BuiltinOperator.conv2D, try activationCode(producer) != 0,
            graph.operations[next].builtinCode == Schema.BuiltinOperator.depthwiseConv2D
        else { return true }
        return try !isLinear(operation.inputs.first ?? -1)
    }

    /// Whether operator `index` reads a constant of rank 2 or more (a filter or weights).
    private func hasWeights(_ index: Int) -> Bool {
        graph.operations[index].inputs.contains { isConstant($0) && graph.tensors[Int($0)].shape.count >= 2 }
    }

    /// Whether `tensor` is an `ADD`'s output or a convolution's without activation.
    private func isLinear(_ tensor: Int32) throws -> Bool {
        guard let producer = computedAt(tensor), producer >= 0 else { return false }
        switch graph.operations[producer].builtinCode {
        case Schema.BuiltinOperator.add: return true
        case Schema.BuiltinOperator.conv2D, Schema.BuiltinOperator.depthwiseConv2D: return try activationCode(producer) == 0
        default: return false
        }
    }

    /// The fused activation of a `CONV_2D` or `DEPTHWISE_CONV_2D` (its options' field differs).
    func activationCode(_ index: Int) throws -> UInt8 {
        let field =
            graph.operations[index].builtinCode == Schema.BuiltinOperator.conv2D
            ? Schema.Conv2DOptions.fusedActivationFunction : Schema.DepthwiseConv2DOptions.fusedActivationFunction
        return try options(of: index)?.uint8(field, "fused_activation_function") ?? 0
    }

    /// Operator `index`'s builtin options table, or nil when absent (all defaults).
    func options(of index: Int) throws -> FlatBufferTable? {
        try operators[index].table(Schema.Operator.builtinOptions, "builtin_options")
    }

    /// The error for a tensor no operator computes.
    func notComputed(_ tensor: Int, role: String) -> TasksError {
        .invalidArgument("The \(role) \(label(tensor)) is an input or a constant of the base model, not one its layers compute.")
    }
}
