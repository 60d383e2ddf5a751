import TasksCommon

/// The working memory of one network for batches of up to `capacity` examples: every value's
/// activations and gradients, im2col scratch, the dropout mask, the weights being trained and
/// their gradients. Allocated once; every batch reuses it (nothing is allocated per example).
final class Engine {
    let stages: [Stage]
    let capacity: Int
    let classes: Int
    let valueCounts: [Int]
    /// Per value: `capacity × valueCounts[v]` floats, batch-major.
    let values: [FloatBuffer]
    let gradients: [FloatBuffer]
    /// Per stage: its im2col rows (empty for other kernels).
    private let scratch: [FloatBuffer]
    private let dropoutMask: FloatBuffer
    /// The weights and biases being trained (the network's `parameters`, copied in).
    let weights: [FloatBuffer]
    /// dLoss/d(weights), written by `backward`.
    let weightGradients: [FloatBuffer]
    /// Softmax outputs of the last batch, `capacity × classes`.
    let probabilities: FloatBuffer
    let dropout: Dropout

    init(network: TailNetwork, capacity: Int, dropout: Float) {
        stages = network.stages
        self.capacity = capacity
        classes = network.classCount
        valueCounts = network.valueCounts
        values = valueCounts.map { FloatBuffer(count: $0 * capacity) }
        gradients = valueCounts.map { FloatBuffer(count: $0 * capacity) }
        scratch = network.stages.map { FloatBuffer(count: $0.scratchPerExample * capacity) }
        let dropoutInput = network.stages.first { if case .dropout = $0.kernel { true } else { false } }!
        dropoutMask = FloatBuffer(count: dropoutInput.outputCount * capacity)
        weights = network.parameters.map { FloatBuffer(copying: $0) }
        weightGradients = network.parameters.map { FloatBuffer(count: $0.count) }
        probabilities = FloatBuffer(count: classes * capacity)
        self.dropout = Dropout(rate: dropout)
    }

    /// The input of the batch: `capacity × valueCounts[0]` floats.
    var input: UnsafeMutablePointer<Float> { values[0].pointer }
    /// The logits of the batch, `count × classes`.
    var logits: UnsafeMutablePointer<Float> { values[values.count - 1].pointer }
    /// dLoss/dLogits, which the loss writes before `backward`.
    var logitsGradient: UnsafeMutablePointer<Float> { gradients[gradients.count - 1].pointer }

    /// The current weights, as the network's `parameters`.
    var parameters: [[Float]] { weights.map(\.array) }

    /// Runs every stage on the first `count` examples of `input`. With a generator, dropout is on (training).
    func forward(count: Int, random: inout SplitMix64?) {
        precondition(count <= capacity, "Engine.forward: \(count) examples for a capacity of \(capacity)")
        for (index, stage) in stages.enumerated() {
            let output = values[index + 1].pointer
            forward(stage, index: index, count: count, into: output, random: &random)
            stage.activation.apply(output, count: count * stage.outputCount)
        }
    }

    private func forward(_ stage: Stage, index: Int, count: Int, into y: UnsafeMutablePointer<Float>, random: inout SplitMix64?) {
        let x = UnsafePointer(values[stage.inputs[0]].pointer)
        switch stage.kernel {
        case .convolution(let convolution):
            convolution.forward(
                x, images: count, filter: weight(stage), bias: bias(stage), into: y, scratch: scratch[index].pointer)
        case .depthwise(let depthwise):
            depthwise.forward(x, images: count, filter: weight(stage), bias: bias(stage), into: y)
        case .add:
            let other = values[stage.inputs[1]].pointer
            for i in 0..<(count * stage.outputCount) { y[i] = x[i] + other[i] }
        case .averagePool(let pool):
            pool.forward(x, images: count, into: y)
        case .reshape:
            y.update(from: x, count: count * stage.outputCount)
        case .fullyConnected(let inputs, let outputs):
            DenseRows.forward(
                x, rows: count, inputs: inputs, outputs: outputs, weights: weight(stage), bias: bias(stage), into: y)
        case .dropout:
            dropout.forward(x, count: count * stage.outputCount, into: y, mask: dropoutMask.pointer, random: &random)
        }
    }

    /// From `logitsGradient`, back through every stage: fills `weightGradients` and the values'
    /// `gradients` (the input's only with `inputGradient`; otherwise its work is skipped).
    func backward(count: Int, inputGradient: Bool) {
        for value in (inputGradient ? 0 : 1)..<(values.count - 1) { gradients[value].zero(count * valueCounts[value]) }
        for (index, stage) in stages.enumerated().reversed() {
            let dy = gradients[index + 1].pointer
            stage.activation.backward(dy, output: values[index + 1].pointer, count: count * stage.outputCount)
            let dx = stage.inputs.map { $0 == 0 && !inputGradient ? nil : gradients[$0].pointer }
            backward(stage, index: index, count: count, dy: dy, dx: dx)
        }
    }

    private func backward(
        _ stage: Stage, index: Int, count: Int, dy: UnsafeMutablePointer<Float>, dx: [UnsafeMutablePointer<Float>?]
    ) {
        let x = UnsafePointer(values[stage.inputs[0]].pointer)
        switch stage.kernel {
        case .convolution(let convolution):
            convolution.backward(
                dy, x: x, images: count, filter: weight(stage), filterGradient: weightGradient(stage),
                biasGradient: biasGradient(stage), dx: dx[0], scratch: scratch[index].pointer)
        case .depthwise(let depthwise):
            depthwise.backward(
                dy, x: x, images: count, filter: weight(stage), filterGradient: weightGradient(stage),
                biasGradient: biasGradient(stage), dx: dx[0])
        case .add:
            for target in dx.compactMap({ $0 }) {
                for i in 0..<(count * stage.outputCount) { target[i] += dy[i] }
            }
        case .averagePool(let pool):
            if let target = dx[0] { pool.backward(dy, images: count, into: target) }
        case .reshape:
            if let target = dx[0] {
                for i in 0..<(count * stage.outputCount) { target[i] += dy[i] }
            }
        case .fullyConnected(let inputs, let outputs):
            DenseRows.backward(
                dy, x: x, rows: count, inputs: inputs, outputs: outputs, weights: weight(stage),
                weightGradient: weightGradient(stage), biasGradient: biasGradient(stage), inputGradient: dx[0])
        case .dropout:
            if let target = dx[0] {
                dropout.backward(dy, count: count * stage.outputCount, mask: dropoutMask.pointer, into: target)
            }
        }
    }

    private func weight(_ stage: Stage) -> UnsafePointer<Float> { UnsafePointer(weights[stage.parameter!].pointer) }
    private func bias(_ stage: Stage) -> UnsafePointer<Float> { UnsafePointer(weights[stage.parameter! + 1].pointer) }
    private func weightGradient(_ stage: Stage) -> UnsafeMutablePointer<Float> { weightGradients[stage.parameter!].pointer }
    private func biasGradient(_ stage: Stage) -> UnsafeMutablePointer<Float> { weightGradients[stage.parameter! + 1].pointer }

    /// Multiply-adds per example of the forward pass's products (convolutions and fully connected layers).
    var multiplyAddsPerExample: Int {
        stages.reduce(0) { total, stage in
            switch stage.kernel {
            case .convolution(let convolution): total + convolution.multiplyAddsPerImage
            case .fullyConnected(let inputs, let outputs): total + inputs * outputs
            default: total
            }
        }
    }
}
