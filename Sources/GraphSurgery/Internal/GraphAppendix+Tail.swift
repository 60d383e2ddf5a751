import Foundation
import TFLiteMetadata

/// A `TailLayer` as its TFLite builtin operator, float32 (version 1 of every float kernel).
extension GraphAppendix {
    /// Appends `layer` reading tensors `inputs`; its weights become new constants named after
    /// `name`, as does its output. Returns the output tensor.
    mutating func tailLayer(_ layer: TailLayer, inputs: [Int32], name: String) -> Int32 {
        var operands = inputs
        if let (weights, shape, bias) = layer.operation.weights {
            let weightsName = if case .fullyConnected = layer.operation { "weights" } else { "filter" }
            operands.append(floatConstant("\(name)/\(weightsName)", shape: shape, values: weights))
            operands.append(floatConstant("\(name)/bias", shape: [bias.count], values: bias))
        }
        operands += shapeOperands(of: layer.operation, name: name)
        let output = tensor(name, shape: layer.outputShape)
        let (builtin, options) = Self.builtin(of: layer.operation)
        append(code(builtin), inputs: operands, outputs: [output], options: options)
        return output
    }

    /// The constant operands after the data of `MEAN` (its axes) and `RESHAPE` (its shape).
    mutating func shapeOperands(of operation: TailOperation, name: String) -> [Int32] {
        switch operation {
        case .meanOverSpace: [int32Constant("\(name)/axes", values: [1, 2])]
        case .reshape(let shape): [int32Constant("\(name)/shape", values: shape.map { Int32($0) })]
        default: []
        }
    }

    /// The builtin operator of `operation` and its options (union type and table).
    static func builtin(of operation: TailOperation) -> (code: Int32, options: (type: UInt8, table: FlatBufferValue)) {
        switch operation {
        case .conv2D(_, _, _, let strideH, let strideW, let padding, let activation):
            let options: [Int: FlatBufferValue] = [
                Schema.Conv2DOptions.padding: .uint8(paddingCode(padding)),
                Schema.Conv2DOptions.strideW: .uint32(UInt32(strideW)), Schema.Conv2DOptions.strideH: .uint32(UInt32(strideH)),
                Schema.Conv2DOptions.fusedActivationFunction: .uint8(activationCode(activation)),
            ]
            return (Schema.BuiltinOperator.conv2D, (Schema.BuiltinOptions.conv2DOptions, .table(options)))
        case .depthwiseConv2D(_, _, _, let strideH, let strideW, let padding, let multiplier, let activation):
            let options: [Int: FlatBufferValue] = [
                Schema.DepthwiseConv2DOptions.padding: .uint8(paddingCode(padding)),
                Schema.DepthwiseConv2DOptions.strideW: .uint32(UInt32(strideW)),
                Schema.DepthwiseConv2DOptions.strideH: .uint32(UInt32(strideH)),
                Schema.DepthwiseConv2DOptions.depthMultiplier: .uint32(UInt32(multiplier)),
                Schema.DepthwiseConv2DOptions.fusedActivationFunction: .uint8(activationCode(activation)),
            ]
            return (Schema.BuiltinOperator.depthwiseConv2D, (Schema.BuiltinOptions.depthwiseConv2DOptions, .table(options)))
        case .fullyConnected(_, _, _, let activation):
            return (
                Schema.BuiltinOperator.fullyConnected,
                (Schema.BuiltinOptions.fullyConnectedOptions, activationOptions(activation))
            )
        case .add(let activation):
            return (Schema.BuiltinOperator.add, (Schema.BuiltinOptions.addOptions, activationOptions(activation)))
        case .averagePool2D(let filterH, let filterW, let strideH, let strideW, let padding, let activation):
            let options: [Int: FlatBufferValue] = [
                Schema.Pool2DOptions.padding: .uint8(paddingCode(padding)),
                Schema.Pool2DOptions.strideW: .uint32(UInt32(strideW)), Schema.Pool2DOptions.strideH: .uint32(UInt32(strideH)),
                Schema.Pool2DOptions.filterWidth: .uint32(UInt32(filterW)),
                Schema.Pool2DOptions.filterHeight: .uint32(UInt32(filterH)),
                Schema.Pool2DOptions.fusedActivationFunction: .uint8(activationCode(activation)),
            ]
            return (Schema.BuiltinOperator.averagePool2D, (Schema.BuiltinOptions.pool2DOptions, .table(options)))
        case .meanOverSpace:
            return (
                Schema.BuiltinOperator.mean,
                (Schema.BuiltinOptions.reducerOptions, .table([Schema.ReducerOptions.keepDims: .uint8(1)]))
            )
        case .reshape(let shape):
            let newShape = shape.map { Int32($0) }
            return (
                Schema.BuiltinOperator.reshape,
                (Schema.BuiltinOptions.reshapeOptions, .table([Schema.ReshapeOptions.newShape: .int32s(newShape)]))
            )
        }
    }
}
