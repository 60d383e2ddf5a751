import GraphSurgery
import TFLiteMetadata
import TasksCommon

/// The tail and the head as one trainable network: the pretrained tail layers (TFLite NHWC
/// layouts, float weights), then the head's fully connected layers. A value: training returns a
/// new one with the trained weights.
package struct TailNetwork: Sendable {
    /// The layers as given, with the weights they were built with (`parameters` holds the current ones).
    private let templates: [TailLayer]
    /// The engine's steps: the tail's layers, a dropout step, the head's layers.
    let stages: [Stage]
    /// Each weighted layer's weights and bias, alternating, in layer order: the pretrained
    /// layers' first (`pretrainedParameterCount` arrays), then the head's.
    var parameters: [[Float]]
    /// How many of `parameters` belong to the pretrained layers (they train at the lower rate).
    let pretrainedParameterCount: Int
    /// Floats per example of each value: the input, then each stage's output.
    let valueCounts: [Int]

    /// The number of pretrained layers at the front of `layers`.
    package let pretrainedCount: Int
    /// The cut tensor's shape, batch first: `[1, H, W, C]` or `[1, N]`.
    package let inputShape: [Int]
    /// The number of classes: the logits layer's outputs.
    package let classCount: Int

    /// Builds the network.
    /// - Parameters:
    ///   - layers: the pretrained tail (may be empty: the head alone on the cut tensor); layer
    ///     `i` reads values by index (0 the input, `j + 1` layer j's output).
    ///   - inputShape: the cut tensor's shape `[1, H, W, C]` (or `[1, N]`).
    ///   - hiddenUnits: the head's hidden layers (fully connected + RELU, He-uniform weights, zero bias).
    ///   - classCount: the logits layer's outputs, at least 2 (Glorot-uniform weights, zero
    ///     bias: Keras's `Dense` defaults).
    ///   - seed: fixes the head's initial weights.
    /// - Throws: `TasksError.invalidArgument` (naming the layer and the values) when a layer's
    ///   weights do not fit their shapes, an input index is invalid, or shapes do not chain; or
    ///   for an invalid input shape, hidden size or class count.
    package init(layers: [TailLayer], inputShape: [Int], hiddenUnits: [Int], classCount: Int, seed: UInt64) throws(TasksError) {
        try Self.checkArguments(inputShape: inputShape, hiddenUnits: hiddenUnits, classCount: classCount)
        var planner = StagePlanner(inputShape: inputShape)
        var stages: [Stage] = []
        for (index, layer) in layers.enumerated() {
            stages.append(try planner.add(layer, index: index, reading: layer.inputs))
        }
        let pretrainedParameterCount = planner.parameters.count
        stages.append(planner.addDropout(reading: layers.count))
        let head = HeadInitializer(
            firstValue: layers.count, inputCount: StagePlanner.count(planner.shapes[layers.count]), seed: seed
        ).layers(hiddenUnits: hiddenUnits, classCount: classCount)
        for (offset, layer) in head.enumerated() {
            stages.append(try planner.add(layer, index: layers.count + offset, reading: [layers.count + 1 + offset]))
        }
        templates = layers + head
        self.stages = stages
        parameters = planner.parameters
        self.pretrainedParameterCount = pretrainedParameterCount
        valueCounts = planner.shapes.map(StagePlanner.count)
        pretrainedCount = layers.count
        self.inputShape = inputShape
        self.classCount = classCount
    }

    private static func checkArguments(inputShape: [Int], hiddenUnits: [Int], classCount: Int) throws(TasksError) {
        guard inputShape.count == 2 || inputShape.count == 4, inputShape[0] == 1, inputShape.allSatisfy({ $0 > 0 }) else {
            throw .invalidArgument("The tail's input shape \(inputShape) is not [1, H, W, C] or [1, N] with positive sizes.")
        }
        guard hiddenUnits.allSatisfy({ $0 > 0 }) else {
            throw .invalidArgument("The head's hidden layer sizes \(hiddenUnits) must all be at least 1.")
        }
        guard classCount >= 2 else {
            throw .invalidArgument("The class count is \(classCount); a classifier needs at least 2 classes.")
        }
    }

    /// All layers: the pretrained ones (with the trained weights after training), then the
    /// head's fully connected layers "head/dense_0" … (RELU) and "head/logits" (no activation),
    /// whose output shapes are `[1, units]`.
    package var layers: [TailLayer] {
        var result = templates
        for stage in stages {
            guard let layer = stage.layer, let parameter = stage.parameter else { continue }
            result[layer].operation = result[layer].operation.replacingWeights(
                parameters[parameter], bias: parameters[parameter + 1])
        }
        return result
    }

    /// Floats per example of the input.
    var inputCount: Int { valueCounts[0] }
}

extension TailOperation {
    /// The operation with other weights (and bias) of the same shapes; unchanged without weights.
    func replacingWeights(_ weights: [Float], bias: [Float]) -> TailOperation {
        switch self {
        case .conv2D(_, let shape, _, let strideH, let strideW, let padding, let activation):
            return .conv2D(
                filter: weights, filterShape: shape, bias: bias, strideH: strideH, strideW: strideW, padding: padding,
                activation: activation)
        case .depthwiseConv2D(_, let shape, _, let strideH, let strideW, let padding, let multiplier, let activation):
            return .depthwiseConv2D(
                filter: weights, filterShape: shape, bias: bias, strideH: strideH, strideW: strideW, padding: padding,
                depthMultiplier: multiplier, activation: activation)
        case .fullyConnected(_, let shape, _, let activation):
            return .fullyConnected(weights: weights, weightsShape: shape, bias: bias, activation: activation)
        case .add, .averagePool2D, .meanOverSpace, .reshape:
            return self
        }
    }
}
