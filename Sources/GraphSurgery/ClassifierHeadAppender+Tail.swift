import Foundation
import TFLiteMetadata
import TasksCommon

extension ClassifierHeadAppender {
    /// The base cut at tensor `cut` (the trunk's operators kept as they are, quantized), a
    /// `DEQUANTIZE` when the cut is UINT8 or INT8, then `layers` in float32, then `SOFTMAX`:
    /// `train --fine-tune`'s model. Its one output is `[1, classes]` FLOAT32 named
    /// "probabilities"; the signatures' outputs say so; the base's metadata entries are kept.
    /// With `calibration`, the layers are written in int8 instead (`--quantize`): the cut
    /// requantized to INT8, each layer's int8 kernel with per-channel weights, and the scores
    /// UINT8 with scale 1/256.
    /// - Parameter layers: inputs 0 = the cut tensor (dequantized), `i + 1` = layer `i`'s
    ///   output; weights and biases are written as new float32 buffers; the last layer is the
    ///   logits, a `fullyConnected` with output `[1, classes]`.
    /// - Throws: `TasksError` invalidArgument for an empty list, a layer whose inputs are out
    ///   of range or of the wrong count, weights that do not fit their shape, a last layer that
    ///   is not a fully connected `[1, classes]`; the cut errors of `appending` (out of range,
    ///   not computed, not `[1, ...]`, not FLOAT32, UINT8 or INT8); a calibration without one
    ///   range per value; and the writer's.
    package static func replacingTail(
        of model: Data, at cut: Int, with layers: [TailLayer], calibration: TailCalibration? = nil
    ) throws(TasksError) -> Data {
        let classes = try TailLayerChecks.classes(of: layers)
        let graph = try graph(of: model)
        let point = try CutPoint(graph: graph, tensor: cut, noun: "cut")
        if let calibration {
            guard calibration.ranges.count == layers.count + 1 else {
                throw .invalidArgument(
                    "The calibration has \(calibration.ranges.count) ranges; a tail of \(layers.count) layers needs "
                        + "\(layers.count + 1) (the cut's, then each layer's output).")
            }
        }
        return try GraphEdit.write(model, graph: graph, lastKept: point.producer, outputName: "probabilities") { appendix in
            guard let calibration else { return floatTail(layers, from: point, classes: classes, in: &appendix) }
            return int8Tail(layers, from: point, calibration: calibration, classes: classes, in: &appendix)
        }
    }

    private static func floatTail(
        _ layers: [TailLayer], from point: CutPoint, classes: Int, in appendix: inout GraphAppendix
    ) -> Int32 {
        var values = [point.floatInput(in: &appendix, name: "tail/input")]
        for (index, layer) in layers.enumerated() {
            values.append(appendix.tailLayer(layer, inputs: layer.inputs.map { values[$0] }, name: layerName(layer, index)))
        }
        return appendix.softmax(values[layers.count], classes: classes, name: "probabilities")
    }

    /// The layers in int8, the logits dequantized for a float `SOFTMAX`, the scores quantized
    /// to UINT8 (scale 1/256) as the frozen head's quantized model gives them.
    private static func int8Tail(
        _ layers: [TailLayer], from point: CutPoint, calibration: TailCalibration, classes: Int,
        in appendix: inout GraphAppendix
    ) -> Int32 {
        var values = [point.int8Input(in: &appendix, range: calibration.ranges[0], name: "tail/input")]
        for (index, layer) in layers.enumerated() {
            values.append(
                appendix.int8TailLayer(
                    layer, inputs: layer.inputs.map { values[$0] }, range: calibration.ranges[index + 1],
                    name: layerName(layer, index)))
        }
        let logits = appendix.dequantize(values[layers.count].tensor, shape: [1, classes], int8: true, name: "tail/logits")
        let probabilities = appendix.softmax(logits, classes: classes, name: "probabilities/float")
        return appendix.quantizeScores(probabilities, classes: classes, name: "probabilities")
    }

    private static func layerName(_ layer: TailLayer, _ index: Int) -> String {
        "tail/\(index)/" + (layer.name.isEmpty ? "layer" : layer.name)
    }
}
