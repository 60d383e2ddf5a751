import Foundation
import TFLiteMetadata

/// A tensor of an int8 tail and its quantization.
struct Int8Value {
    let tensor: Int32
    let quantization: TensorQuantization
}

/// A `TailLayer` as its TFLite int8 kernel: TFLite's full-integer scheme (weights symmetric
/// int8, per output channel for convolutions, per tensor for fully connected layers; biases
/// int32 at the input's scale times the weights'; activations asymmetric int8).
extension GraphAppendix {
    /// Appends `layer` reading `inputs`, its output quantized for `range` (pools, `MEAN` and
    /// `RESHAPE` keep their input's quantization, as TFLite's kernels require).
    mutating func int8TailLayer(_ layer: TailLayer, inputs: [Int8Value], range: ClosedRange<Float>, name: String) -> Int8Value {
        var operands = inputs.map(\.tensor)
        if let (weights, shape, bias) = layer.operation.weights {
            let axis: Int? =
                switch layer.operation {
                case .conv2D: 0
                case .depthwiseConv2D: 3
                default: nil
                }
            operands += int8Weights(weights, shape: shape, bias: bias, channelAxis: axis, input: inputs[0], name: name)
        }
        operands += shapeOperands(of: layer.operation, name: name)
        let quantization =
            switch layer.operation {
            case .averagePool2D, .meanOverSpace, .reshape: inputs[0].quantization
            default: TailCalibration.int8(range)
            }
        let output = int8Tensor(name, shape: layer.outputShape, quantization)
        let (builtin, options) = Self.builtin(of: layer.operation)
        append(
            code(builtin, version: Self.int8Version(of: layer.operation)), inputs: operands, outputs: [output], options: options)
        return Int8Value(tensor: output, quantization: quantization)
    }

    /// `QUANTIZE` of `input` (FLOAT32, or UINT8 requantized) to INT8 with `quantization`.
    mutating func quantizeToInt8(_ input: Int32, shape: [Int], _ quantization: TensorQuantization, name: String) -> Int8Value {
        let output = int8Tensor(name, shape: shape, quantization)
        append(code(Schema.BuiltinOperator.quantize, version: 2), inputs: [input], outputs: [output])
        return Int8Value(tensor: output, quantization: quantization)
    }

    /// An INT8 activation tensor.
    private mutating func int8Tensor(_ name: String, shape: [Int], _ quantization: TensorQuantization) -> Int32 {
        tensor(
            name, shape: shape, type: Schema.TensorType.int8,
            quantization: Self.quantizationTable(scales: [quantization.scale], zeroPoints: [quantization.zeroPoint]))
    }

    /// The weights as symmetric int8 (−127…127; one scale per index of `channelAxis`, or one
    /// for all) and the bias as int32 at `input`'s scale times each channel's: the filter and
    /// bias operands.
    private mutating func int8Weights(
        _ weights: [Float], shape: [Int], bias: [Float], channelAxis: Int?, input: Int8Value, name: String
    ) -> [Int32] {
        let channels = channelAxis.map { shape[$0] } ?? 1
        let inner = channelAxis == 0 ? weights.count / max(channels, 1) : 1
        func channel(_ index: Int) -> Int {
            switch channelAxis {
            case nil: 0
            case 0: index / inner
            default: index % channels
            }
        }
        var largest = [Float](repeating: 0, count: channels)
        for (index, weight) in weights.enumerated() { largest[channel(index)] = max(largest[channel(index)], abs(weight)) }
        // An all-zero channel quantizes to zeros at any scale; 1 keeps the bias scale positive.
        let scales = largest.map { $0 > 0 ? $0 / 127 : 1 }
        let stored = weights.enumerated().map { index, weight in
            UInt8(bitPattern: Int8(clamping: Int((weight / scales[channel(index)]).rounded())))
        }
        let weightsName = channelAxis == nil ? "weights" : "filter"
        let filter = tensor(
            "\(name)/\(weightsName)", shape: shape, type: Schema.TensorType.int8, buffer: newBuffer(bytes: stored),
            quantization: Self.quantizationTable(
                scales: scales, zeroPoints: Array(repeating: 0, count: channels), dimension: channelAxis ?? 0))
        let biasScales = bias.indices.map { input.quantization.scale * scales[channelAxis == nil ? 0 : $0] }
        let biasValues = zip(bias, biasScales).map { value, scale in
            UInt32(bitPattern: Int32(clamping: Int64((Double(value) / Double(scale)).rounded())))
        }
        let biasTensor = tensor(
            "\(name)/bias", shape: [bias.count], type: Schema.TensorType.int32, buffer: newBuffer(biasValues),
            quantization: Self.quantizationTable(
                scales: biasScales, zeroPoints: Array(repeating: 0, count: bias.count), dimension: 0))
        return [filter, biasTensor]
    }

    /// A `QuantizationParameters` table.
    static func quantizationTable(scales: [Float], zeroPoints: [Int], dimension: Int = 0) -> FlatBufferValue {
        var fields: [Int: FlatBufferValue] = [
            Schema.QuantizationParameters.scale: .floats(scales),
            Schema.QuantizationParameters.zeroPoint: .int64s(zeroPoints.map(Int64.init)),
        ]
        if dimension != 0 { fields[Schema.QuantizationParameters.quantizedDimension] = .uint32(UInt32(dimension)) }
        return .table(fields)
    }

    /// The kernel version TFLite's op versioning gives the int8 form of `operation` (per-channel
    /// convolutions 3, fully connected 4, the others 2; `RESHAPE` 1).
    private static func int8Version(of operation: TailOperation) -> Int32 {
        switch operation {
        case .conv2D, .depthwiseConv2D: 3
        case .fullyConnected: 4
        case .add, .averagePool2D, .meanOverSpace: 2
        case .reshape: 1
        }
    }
}
