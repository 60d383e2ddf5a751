import GraphSurgery
import TFLiteMetadata
import TasksCommon

@testable import FineTuning

/// Examples held in memory, the same view every epoch.
struct ArrayExamples: TrainingExamples {
    let inputs: [[Float]]
    let labels: [Int]
    var inputCount: Int

    init(inputs: [[Float]], labels: [Int]) {
        self.inputs = inputs
        self.labels = labels
        inputCount = inputs.first?.count ?? 0
    }

    var count: Int { inputs.count }
    func label(of index: Int) -> Int { labels[index] }
    func fill(_ index: Int, epoch: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
        for i in 0..<inputCount { buffer[i] = inputs[index][i] }
    }
}

/// Seeded test values.
struct TestRandom {
    var generator: SplitMix64

    init(_ seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// `count` uniform floats in [low, high).
    mutating func values(_ count: Int, _ low: Float = -1, _ high: Float = 1) -> [Float] {
        (0..<count).map { _ in low + (high - low) * Float(generator.next() >> 40) / Float(1 << 24) }
    }
}

/// Layer builders with random weights.
enum Layers {
    static func conv(
        _ random: inout TestRandom, _ name: String, input: Int, output: [Int], inChannels: Int, kernel: Int, stride: Int,
        padding: LayerPadding, activation: LayerActivation
    ) -> TailLayer {
        let outChannels = output[3]
        let shape = [outChannels, kernel, kernel, inChannels]
        return TailLayer(
            operation: .conv2D(
                filter: random.values(shape.reduce(1, *), -0.5, 0.5), filterShape: shape,
                bias: random.values(outChannels, -0.2, 0.2),
                strideH: stride, strideW: stride, padding: padding, activation: activation),
            inputs: [input], outputShape: output, name: name)
    }

    static func depthwise(
        _ random: inout TestRandom, _ name: String, input: Int, output: [Int], kernel: Int, stride: Int, padding: LayerPadding,
        multiplier: Int, activation: LayerActivation
    ) -> TailLayer {
        let shape = [1, kernel, kernel, output[3]]
        return TailLayer(
            operation: .depthwiseConv2D(
                filter: random.values(shape.reduce(1, *), -0.5, 0.5), filterShape: shape,
                bias: random.values(output[3], -0.2, 0.2),
                strideH: stride, strideW: stride, padding: padding, depthMultiplier: multiplier, activation: activation),
            inputs: [input], outputShape: output, name: name)
    }

    static func dense(
        _ random: inout TestRandom, _ name: String, input: Int, inputs: Int, outputs: Int, activation: LayerActivation
    ) -> TailLayer {
        TailLayer(
            operation: .fullyConnected(
                weights: random.values(inputs * outputs, -0.5, 0.5), weightsShape: [outputs, inputs],
                bias: random.values(outputs, -0.2, 0.2), activation: activation),
            inputs: [input], outputShape: [1, outputs], name: name)
    }
}
