import GraphSurgery
import TFLiteMetadata
import TasksCommon

/// Turns a `TailLayer` into a `Stage`, checking that its weights fit their shapes and that its
/// shapes chain with the values it reads. Errors name the layer and the values at fault.
struct StagePlanner {
    /// Each value's shape so far, batch first (`[1, H, W, C]` or `[1, N]`): the input, then each stage's output.
    private(set) var shapes: [[Int]]
    /// Weights and biases of the stages so far, alternating.
    private(set) var parameters: [[Float]] = []

    init(inputShape: [Int]) {
        shapes = [inputShape]
    }

    /// Checks `layer` (the network's layer `index`, the next stage) and adds its stage.
    mutating func add(_ layer: TailLayer, index: Int, reading inputs: [Int]) throws(TasksError) -> Stage {
        try checkShape(layer.outputShape, of: layer)
        let inputShapes = try self.inputShapes(of: layer, inputs)
        let (kernel, activation, weights) = try plan(layer, inputShapes)
        var parameter: Int?
        if let weights {
            parameter = parameters.count
            parameters += [weights.0, weights.1]
        }
        shapes.append(layer.outputShape)
        return Stage(
            kernel: kernel, inputs: inputs, activation: activation, outputCount: Self.count(layer.outputShape),
            parameter: parameter, layer: index)
    }

    /// Adds the dropout step in front of the head: it keeps the shape of the value it reads.
    mutating func addDropout(reading input: Int) -> Stage {
        shapes.append(shapes[input])
        return Stage(
            kernel: .dropout, inputs: [input], activation: .none, outputCount: Self.count(shapes[input]), parameter: nil,
            layer: nil)
    }

    /// Floats per example of a batch-first shape.
    static func count(_ shape: [Int]) -> Int { shape.dropFirst().reduce(1, *) }

    /// Refuses a shape that is not batch-first `[1, …]` with positive sizes.
    func checkShape(_ shape: [Int], of layer: TailLayer) throws(TasksError) {
        guard shape.count >= 2, shape[0] == 1, shape.allSatisfy({ $0 > 0 }) else {
            throw Self.error(layer, "the output shape \(shape) is not [1, …] with positive sizes")
        }
    }

    /// The shapes of the values `layer` reads, after checking how many it reads and that they exist.
    private func inputShapes(of layer: TailLayer, _ inputs: [Int]) throws(TasksError) -> [[Int]] {
        let expected: Int
        if case .add = layer.operation { expected = 2 } else { expected = 1 }
        guard inputs.count == expected else {
            throw Self.error(layer, "it reads \(inputs.count) values (\(inputs)); this operation reads \(expected)")
        }
        for input in inputs where !shapes.indices.contains(input) {
            throw Self.error(
                layer, "it reads value \(input), but only values 0...\(shapes.count - 1) come before it (0 is the tail's input)")
        }
        return inputs.map { shapes[$0] }
    }

    /// The kernel, activation and (weights, bias) of `layer`, checked against its input shapes.
    private func plan(
        _ layer: TailLayer, _ inputs: [[Int]]
    ) throws(TasksError) -> (
        Kernel, LayerActivation, ([Float], [Float])?
    ) {
        switch layer.operation {
        case .conv2D(let filter, let filterShape, let bias, let strideH, let strideW, let padding, let activation):
            let convolution = try LayerChecks(layer: layer, input: inputs[0]).convolution(
                filter: filter, filterShape: filterShape, bias: bias, strides: (strideH, strideW), padding: padding)
            return (.convolution(convolution), activation, (filter, bias))
        case .depthwiseConv2D(
            let filter, let filterShape, let bias, let strideH, let strideW, let padding, let multiplier, let activation):
            let depthwise = try LayerChecks(layer: layer, input: inputs[0]).depthwise(
                filter: filter, filterShape: filterShape, bias: bias, strides: (strideH, strideW), padding: padding,
                multiplier: multiplier)
            return (.depthwise(depthwise), activation, (filter, bias))
        case .add(let activation):
            guard inputs[0] == inputs[1], inputs[0] == layer.outputShape else {
                throw Self.error(
                    layer, "ADD of shapes \(inputs[0]) and \(inputs[1]) into \(layer.outputShape); all three must be equal")
            }
            return (.add, activation, nil)
        case .averagePool2D(let filterH, let filterW, let strideH, let strideW, let padding, let activation):
            let pool = try LayerChecks(layer: layer, input: inputs[0]).pool(
                kernel: (filterH, filterW), strides: (strideH, strideW), padding: padding)
            return (.averagePool(pool), activation, nil)
        case .meanOverSpace:
            let checks = LayerChecks(layer: layer, input: inputs[0])
            let size = try checks.spatial()
            let pool = try checks.pool(kernel: (size.height, size.width), strides: (1, 1), padding: .valid)
            return (.averagePool(pool), .none, nil)
        case .reshape:
            guard Self.count(inputs[0]) == Self.count(layer.outputShape) else {
                throw Self.error(layer, "RESHAPE of \(inputs[0]) into \(layer.outputShape) changes the number of values")
            }
            return (.reshape, .none, nil)
        case .fullyConnected(let weights, let weightsShape, let bias, let activation):
            let outputs = try LayerChecks(layer: layer, input: inputs[0]).fullyConnected(
                weights: weights, weightsShape: weightsShape, bias: bias)
            return (.fullyConnected(inputs: Self.count(inputs[0]), outputs: outputs), activation, (weights, bias))
        }
    }

    /// invalidArgument "Layer 'NAME': WHAT."
    static func error(_ layer: TailLayer, _ what: String) -> TasksError {
        .invalidArgument("Layer '\(layer.name)': \(what).")
    }
}
