import Foundation
import TFLiteMetadata
import TasksCommon

/// The last layers of a base, from a cut tensor to its features, read as float layers to
/// train (`train --fine-tune K`): the base's own weights, dequantized.
package struct ModelTail: Sendable, Equatable {
    /// The tensor the tail starts at (its input, layer value 0).
    package let cut: Int
    /// The cut tensor's shape, batch first (`[1, 7, 7, 1024]`).
    package let cutShape: [Int]
    /// The cut tensor's quantization; nil for a FLOAT32 tensor.
    package let cutQuantization: TensorQuantization?
    /// The tensor the tail ends at (the base's features).
    package let feature: Int
    /// The layers in execution order; inputs 0 = the cut, `i + 1` = layer `i`'s output.
    package let layers: [TailLayer]

    /// A tail as given (no check against a model): what `reading` returns, or a trained one.
    package init(
        cut: Int, cutShape: [Int], cutQuantization: TensorQuantization?, feature: Int, layers: [TailLayer]
    ) {
        self.cut = cut
        self.cutShape = cutShape
        self.cutQuantization = cutQuantization
        self.feature = feature
        self.layers = layers
    }

    /// The base's layers from tensor `cut` to tensor `feature`, weights dequantized: UINT8 and
    /// INT8 per tensor or per channel (`real = scale[c] × (q − zeroPoint[c])` along the
    /// quantized dimension), INT32 biases with their own scale (input scale × weight scale).
    /// - Throws: `TasksError` invalidArgument when the model is not a one-subgraph TFLite model;
    ///   a tensor is out of range or not computed by an operator; an operator between them is
    ///   not one training supports (naming it, its output, and the largest `--fine-tune` whose
    ///   tail has only supported operators); a layer reads a tensor computed before the cut
    ///   other than the cut (the cut is not a block boundary); or for options training does
    ///   not support (dilation ≠ 1, a fused activation other than NONE, RELU, RELU6, weights not
    ///   FLOAT32, UINT8 or INT8, biases not FLOAT32 or INT32).
    package static func reading(_ model: Data, from cut: Int, to feature: Int) throws(TasksError) -> ModelTail {
        let source = try TailSource.open(model)
        try source.checkTensor(cut, role: "cut")
        try source.checkTensor(feature, role: "feature")
        let layers = try decodingModel(model, invalid: "The base model is not a valid TFLite model", subject: "the base model") {
            try source.layers(from: cut, to: feature)
        }
        let tensor = source.graph.tensors[cut]
        var quantization: TensorQuantization?
        if tensor.typeName != "FLOAT32" {
            guard ["UINT8", "INT8"].contains(tensor.typeName), let scale = tensor.scale.first else {
                throw .invalidArgument(
                    "The cut \(source.label(cut)) is \(tensor.typeName)\(tensor.scale.isEmpty ? " without a scale" : ""); "
                        + "a cut is FLOAT32, or UINT8 or INT8 with a scale.")
            }
            quantization = TensorQuantization(scale: scale, zeroPoint: Int(tensor.zeroPoint.first ?? 0))
        }
        return ModelTail(
            cut: cut, cutShape: tensor.shape.map(Int.init), cutQuantization: quantization, feature: feature, layers: layers)
    }

    /// The cuts `--fine-tune K` can use, nearest the features first: element `k − 1` is the
    /// cut before the last `k` blocks. A block boundary is a tensor that later operators read
    /// as their only computed input; an inverted residual's expansion and depthwise convolution
    /// stay with their block, and weightless operators (pools, RESHAPE) join the block before.
    /// The first block (the one reading the model's input) is never among them.
    /// - Throws: `TasksError` invalidArgument when the model is not a one-subgraph TFLite model
    ///   or `feature` is out of range or not computed by an operator.
    package static func blockStarts(of model: Data, feature: Int) throws(TasksError) -> [Int] {
        let source = try TailSource.open(model)
        try source.checkTensor(feature, role: "feature")
        return try decodingModel(model, invalid: "The base model is not a valid TFLite model", subject: "the base model") {
            try source.blockStarts(feature: feature)
        }
    }

    /// The cut for `--fine-tune k`: the tensor before the last `k` blocks, checked to start a
    /// tail training supports.
    /// - Throws: `TasksError` invalidArgument for `k` < 1, "The base has N blocks before its
    ///   features; --fine-tune K asks for more." when `k` exceeds them, and `reading`'s errors
    ///   for that tail (an unsupported operator, named with the largest `k` that works).
    package static func cut(forBlocks k: Int, of model: Data, feature: Int) throws(TasksError) -> Int {
        guard k >= 1 else { throw .invalidArgument("--fine-tune \(k): the number of blocks to train is 1 or more.") }
        let starts = try blockStarts(of: model, feature: feature)
        guard k <= starts.count else {
            throw .invalidArgument("The base has \(starts.count) blocks before its features; --fine-tune \(k) asks for more.")
        }
        _ = try reading(model, from: starts[k - 1], to: feature)
        return starts[k - 1]
    }
}
