import Foundation
import TasksCommon

extension ClassifierHeadAppender {
    /// The base cut at tensor `cut` (the trunk's operators kept as they are, quantized), a
    /// `DEQUANTIZE` when the cut is UINT8 or INT8, then `layers` in float32, then `SOFTMAX`:
    /// `train --fine-tune`'s model. Its one output is `[1, classes]` FLOAT32 named
    /// "probabilities"; the signatures' outputs say so; the base's metadata entries are kept.
    /// - Parameter layers: inputs 0 = the cut tensor (dequantized), `i + 1` = layer `i`'s
    ///   output; weights and biases are written as new float32 buffers; the last layer is the
    ///   logits, a `fullyConnected` with output `[1, classes]`.
    /// - Throws: `TasksError` invalidArgument for an empty list, a layer whose inputs are out
    ///   of range or of the wrong count, weights that do not fit their shape, a last layer that
    ///   is not a fully connected `[1, classes]`; the cut errors of `appending` (out of range,
    ///   not computed, not `[1, ...]`, not FLOAT32, UINT8 or INT8); and the writer's.
    package static func replacingTail(of model: Data, at cut: Int, with layers: [TailLayer]) throws(TasksError) -> Data {
        let classes = try TailLayerChecks.classes(of: layers)
        let graph = try graph(of: model)
        let point = try CutPoint(graph: graph, tensor: cut, noun: "cut")
        return try GraphEdit.write(model, graph: graph, lastKept: point.producer, outputName: "probabilities") { appendix in
            var values = [point.floatInput(in: &appendix, name: "tail/input")]
            for (index, layer) in layers.enumerated() {
                let name = "tail/\(index)/" + (layer.name.isEmpty ? "layer" : layer.name)
                values.append(appendix.tailLayer(layer, inputs: layer.inputs.map { values[$0] }, name: name))
            }
            return appendix.softmax(values[layers.count], classes: classes, name: "probabilities")
        }
    }
}
