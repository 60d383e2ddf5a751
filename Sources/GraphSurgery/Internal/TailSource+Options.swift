import Foundation
import TFLiteMetadata
import TasksCommon

/// Reading an operator's options and weights into the tail vocabulary, and the messages for
/// what training does not support.
extension TailSource {
    /// The weights (input 1, dequantized, with its shape) and the bias (input 2, or zeros when
    /// absent) of a convolution or fully connected layer; `outputAxis` is the weights' output
    /// channel dimension (the bias's length).
    func weights(of index: Int, outputAxis: Int) throws -> (values: [Float], shape: [Int], bias: [Float]) {
        let inputs = graph.operations[index].inputs
        guard inputs.count >= 2 else { throw TasksError.invalidArgument("\(label(operator: index)) has no weights.") }
        let values = try dequantized(inputs[1], role: "filter", of: index)
        let shape = graph.tensors[Int(inputs[1])].shape.map(Int.init)
        guard shape.indices.contains(outputAxis) else {
            throw TasksError.invalidArgument("The weights of \(label(operator: index)) have shape \(shape).")
        }
        guard inputs.count > 2, inputs[2] >= 0 else { return (values, shape, Array(repeating: 0, count: shape[outputAxis])) }
        let bias = try dequantized(inputs[2], role: "bias", of: index)
        guard bias.count == shape[outputAxis] else {
            throw TasksError.invalidArgument(
                "The bias of \(label(operator: index)) has \(bias.count) values for \(shape[outputAxis]) output channels.")
        }
        return (values, shape, bias)
    }

    /// The vertical and horizontal strides (fields `h` and `w` of `options`), each at least 1.
    func strides(_ options: FlatBufferTable?, _ h: Int, _ w: Int, _ index: Int) throws -> (h: Int, w: Int) {
        let strideH = Int(try options?.uint32(h, "stride_h") ?? 0)
        let strideW = Int(try options?.uint32(w, "stride_w") ?? 0)
        guard strideH >= 1, strideW >= 1 else {
            throw TasksError.invalidArgument(
                "\(label(operator: index)) has strides \(strideH)×\(strideW); they must be 1 or more.")
        }
        return (strideH, strideW)
    }

    /// Throws unless both dilation factors (fields `w` and `h`, 1 when absent) are 1.
    func checkDilation(_ options: FlatBufferTable?, _ w: Int, _ h: Int, _ index: Int) throws {
        let dilationW = try options?.uint32(w, "dilation_w_factor", default: 1) ?? 1
        let dilationH = try options?.uint32(h, "dilation_h_factor", default: 1) ?? 1
        guard dilationW == 1, dilationH == 1 else {
            throw TasksError.invalidArgument(
                "\(label(operator: index)) has dilation \(dilationH)×\(dilationW); training supports dilation 1 only.")
        }
    }

    /// `Padding` SAME (0) or VALID (1).
    func padding(_ code: UInt8, _ index: Int) throws -> LayerPadding {
        switch code {
        case Schema.Padding.same: return .same
        case Schema.Padding.valid: return .valid
        default:
            throw TasksError.invalidArgument("\(label(operator: index)) has padding \(code); TFLite has SAME (0) and VALID (1).")
        }
    }

    /// A fused `ActivationFunctionType`: NONE (0), RELU (1) or RELU6 (3). Older quantized
    /// models (MobileNet v1 0.25, v2 without labels, AutoML's) fuse NONE and leave the clamp to
    /// their output's quantization: a range [0, 6] is RELU6, and [0, m] is RELU, so that the
    /// float layers compute what the quantized ones do (unless `impliedClamp` is false).
    func activation(_ code: UInt8, _ index: Int, impliedClamp: Bool = true) throws -> LayerActivation {
        switch code {
        case Schema.ActivationFunctionType.none: return impliedClamp ? quantizationClamp(ofOperator: index) : .none
        case Schema.ActivationFunctionType.relu: return .relu
        case Schema.ActivationFunctionType.relu6: return .relu6
        default:
            throw TasksError.invalidArgument(
                "\(label(operator: index)) has fused activation \(code); training supports NONE (0), RELU (1) and RELU6 (3).")
        }
    }

    /// The activation operator `index`'s quantized output range implies: RELU6 for [0, 6],
    /// RELU for [0, m], none for a float output or a range below 0.
    private func quantizationClamp(ofOperator index: Int) -> LayerActivation {
        guard let output = graph.operations[index].outputs.first, output >= 0, Int(output) < graph.tensors.count else {
            return .none
        }
        let tensor = graph.tensors[Int(output)]
        guard tensor.scale.count == 1, tensor.zeroPoint.count == 1, tensor.scale[0] > 0 else { return .none }
        let lowest: Float
        let highest: Float
        switch tensor.typeName {
        case "UINT8": (lowest, highest) = (0, 255)
        case "INT8": (lowest, highest) = (-128, 127)
        default: return .none
        }
        let scale = tensor.scale[0], zeroPoint = Float(tensor.zeroPoint[0])
        guard zeroPoint == lowest else { return .none }
        return abs(scale * (highest - zeroPoint) - 6) <= scale ? .relu6 : .relu
    }

    /// Why operator `index` cannot be trained, with the most blocks `--fine-tune` can take
    /// before `feature` and keep every unsupported operator in the frozen trunk.
    func unsupported(_ index: Int, feature: Int) throws -> String {
        let last = producers[feature] ?? index
        let lastUnsupported =
            (index...last).last { !Self.trainableOperators.contains(graph.operations[$0].builtinCode) } ?? index
        let fitting = try blockStarts(feature: feature).filter { (producers[$0] ?? -1) >= lastUnsupported }.count
        let advice =
            fitting == 0
            ? "no --fine-tune leaves it in the frozen trunk (it is in the last block)"
            : "--fine-tune \(fitting) or fewer leaves it in the frozen trunk"
        let operation = graph.operations[index]
        let output = operation.outputs.first.map { ", writing \(label(Int($0)))" } ?? ""
        return "Training does not support \(Schema.BuiltinOperator.name(of: operation.builtinCode)) "
            + "(operator \(index)\(output)); \(advice)."
    }

    /// Why `cut` does not start a tail: operator `index` reads `tensor`, computed before it.
    func notABoundary(_ cut: Int, _ index: Int, _ tensor: Int32) -> String {
        "The cut \(label(cut)) is not a block boundary: \(label(operator: index)) reads \(label(Int(tensor))), "
            + "computed before it; a tail starts where its input is the only tensor later operators read."
    }
}
