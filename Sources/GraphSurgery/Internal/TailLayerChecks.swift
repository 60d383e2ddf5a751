import Foundation
import TFLiteMetadata
import TasksCommon

/// The checks `replacingTail` makes of the layers it writes, so a bad list is refused with
/// its layer named rather than written as a model LiteRT rejects.
enum TailLayerChecks {
    /// The class count of a checked layer list: its last layer's `[1, classes]` output.
    /// - Throws: `TasksError` invalidArgument naming the first bad layer.
    static func classes(of layers: [TailLayer]) throws(TasksError) -> Int {
        guard let last = layers.last else { throw .invalidArgument("The tail has no layers; it needs at least the logits.") }
        for (index, layer) in layers.enumerated() { try check(layer, at: index) }
        guard case .fullyConnected(_, _, let bias, _) = last.operation, last.outputShape == [1, bias.count] else {
            throw .invalidArgument(
                "The tail's last layer (\(layers.count - 1), output \(last.outputShape)) must be the logits: a fullyConnected "
                    + "with output [1, classes].")
        }
        return bias.count
    }

    private static func check(_ layer: TailLayer, at index: Int) throws(TasksError) {
        let expected = if case .add = layer.operation { 2 } else { 1 }
        guard layer.inputs.count == expected, layer.inputs.allSatisfy({ (0...index).contains($0) }) else {
            throw .invalidArgument(
                "Layer \(index) ('\(layer.name)') reads values \(layer.inputs); it takes \(expected), each from 0 (the cut) "
                    + "to \(index) (the previous layer's output).")
        }
        guard !layer.outputShape.isEmpty, layer.outputShape.allSatisfy({ $0 >= 1 }) else {
            throw .invalidArgument("Layer \(index) ('\(layer.name)') has output shape \(layer.outputShape).")
        }
        guard let (values, shape, bias) = layer.operation.weights else { return }
        // The output channels: the filter's first axis, a depthwise filter's last.
        let outputs =
            switch layer.operation {
            case .depthwiseConv2D: shape.count == 4 && shape[0] == 1 ? shape[3] : -1
            default: shape.count == (layer.operation.isFullyConnected ? 2 : 4) ? shape[0] : -1
            }
        guard values.count == shape.reduce(1, *), bias.count == outputs, shape.allSatisfy({ $0 >= 1 }) else {
            throw .invalidArgument(
                "Layer \(index) ('\(layer.name)') has \(values.count) weights for shape \(shape) and \(bias.count) biases "
                    + "for \(outputs) outputs.")
        }
    }
}
