import GraphSurgery
import TFLiteMetadata
import TasksCommon

/// The new head's layers with Keras's `Dense` initial weights: He-uniform (limit √(6 / fan_in))
/// for the RELU hidden layers, Glorot-uniform (limit √(6 / (fan_in + fan_out))) for the logits,
/// zero biases; drawn in layer order, row-major, from one seeded generator.
struct HeadInitializer {
    /// The public value index the head reads (the tail's output; 0 without a tail).
    let firstValue: Int
    /// Floats per example of that value (the head's first layer flattens it).
    let inputCount: Int
    let seed: UInt64

    /// "head/dense_0" … with `hiddenUnits`, then "head/logits" with `classCount` outputs.
    func layers(hiddenUnits: [Int], classCount: Int) -> [TailLayer] {
        var random = SplitMix64(seed: seed ^ 0x6865_6164)  // "head": other consumers of the seed draw other streams
        var result: [TailLayer] = []
        var fanIn = inputCount
        for (index, units) in (hiddenUnits + [classCount]).enumerated() {
            let isLogits = index == hiddenUnits.count
            let limit = isLogits ? (6 / Float(fanIn + units)).squareRoot() : (6 / Float(fanIn)).squareRoot()
            let weights = (0..<(units * fanIn)).map { _ in random.nextSymmetric(limit) }
            let operation = TailOperation.fullyConnected(
                weights: weights, weightsShape: [units, fanIn], bias: [Float](repeating: 0, count: units),
                activation: isLogits ? .none : .relu)
            result.append(
                TailLayer(
                    operation: operation, inputs: [firstValue + index], outputShape: [1, units],
                    name: isLogits ? "head/logits" : "head/dense_\(index)"))
            fanIn = units
        }
        return result
    }
}
