import Foundation
import TFLiteMetadata

/// The float layers graph edits append, each returning its output tensor.
extension GraphAppendix {
    /// `DEQUANTIZE` of a UINT8 or INT8 tensor to FLOAT32 (INT8 is version 2 of the kernel).
    mutating func dequantize(_ input: Int32, shape: [Int], int8: Bool, name: String) -> Int32 {
        let output = tensor(name, shape: shape)
        append(code(Schema.BuiltinOperator.dequantize, version: int8 ? 2 : 1), inputs: [input], outputs: [output])
        return output
    }

    /// `FULLY_CONNECTED`: weights `[out, in]` and bias `[out]` as new constants named
    /// "<name>/weights" and "<name>/bias"; output `outputShape` named `output`.
    mutating func fullyConnected(
        _ input: Int32, weights: [Float], bias: [Float], activation: LayerActivation, outputShape: [Int], name: String,
        output outputName: String
    ) -> Int32 {
        let weightsTensor = floatConstant(
            "\(name)/weights", shape: [bias.count, bias.isEmpty ? 0 : weights.count / bias.count], values: weights)
        let biasTensor = floatConstant("\(name)/bias", shape: [bias.count], values: bias)
        let output = tensor(outputName, shape: outputShape)
        append(
            code(Schema.BuiltinOperator.fullyConnected), inputs: [input, weightsTensor, biasTensor], outputs: [output],
            options: (Schema.BuiltinOptions.fullyConnectedOptions, Self.activationOptions(activation)))
        return output
    }

    /// `SOFTMAX` (beta 1) of `[1, classes]` logits.
    mutating func softmax(_ input: Int32, classes: Int, name: String) -> Int32 {
        let output = tensor(name, shape: [1, classes])
        append(
            code(Schema.BuiltinOperator.softmax), inputs: [input], outputs: [output],
            options: (Schema.BuiltinOptions.softmaxOptions, .table([Schema.BuiltinOptions.softmaxBeta: .float(1)])))
        return output
    }

    /// `QUANTIZE` to UINT8 scores: scale 1/256, zero point 0.
    mutating func quantizeScores(_ input: Int32, classes: Int, name: String) -> Int32 {
        let quantization = FlatBufferValue.table([
            Schema.QuantizationParameters.scale: .floats([1.0 / 256]), Schema.QuantizationParameters.zeroPoint: .int64s([0]),
        ])
        let output = tensor(name, shape: [1, classes], type: Schema.TensorType.uint8, quantization: quantization)
        append(code(Schema.BuiltinOperator.quantize), inputs: [input], outputs: [output])
        return output
    }

    /// Options whose field 0 is the fused activation (`AddOptions`, `FullyConnectedOptions`).
    static func activationOptions(_ activation: LayerActivation) -> FlatBufferValue {
        .table([Schema.FusedActivationOptions.fusedActivationFunction: .uint8(activationCode(activation))])
    }

    static func activationCode(_ activation: LayerActivation) -> UInt8 {
        switch activation {
        case .none: Schema.ActivationFunctionType.none
        case .relu: Schema.ActivationFunctionType.relu
        case .relu6: Schema.ActivationFunctionType.relu6
        }
    }

    static func paddingCode(_ padding: LayerPadding) -> UInt8 {
        padding == .same ? Schema.Padding.same : Schema.Padding.valid
    }
}
