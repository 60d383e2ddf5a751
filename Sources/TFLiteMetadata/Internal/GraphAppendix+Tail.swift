import Foundation

/// A `TailLayer` as its TFLite builtin operator, float32 (version 1 of every float kernel).
extension GraphAppendix {
    /// Appends `layer` reading tensors `inputs`; its weights become new constants named after
    /// `name`, as does its output. Returns the output tensor.
    mutating func tailLayer(_ layer: TailLayer, inputs: [Int32], name: String) -> Int32 {
        switch layer.operation {
        case .conv2D(let filter, let filterShape, let bias, let strideH, let strideW, let padding, let activation):
            let options: [Int: FlatBufferValue] = [
                Schema.Conv2DOptions.padding: .uint8(Self.paddingCode(padding)),
                Schema.Conv2DOptions.strideW: .uint32(UInt32(strideW)), Schema.Conv2DOptions.strideH: .uint32(UInt32(strideH)),
                Schema.Conv2DOptions.fusedActivationFunction: .uint8(Self.activationCode(activation)),
            ]
            return convolution(
                Schema.BuiltinOperator.conv2D, inputs[0], filter: filter, filterShape: filterShape, bias: bias,
                options: (Schema.BuiltinOptions.conv2DOptions, .table(options)), layer: layer, name: name)
        case .depthwiseConv2D(
            let filter, let filterShape, let bias, let strideH, let strideW, let padding, let multiplier, let activation):
            let options: [Int: FlatBufferValue] = [
                Schema.DepthwiseConv2DOptions.padding: .uint8(Self.paddingCode(padding)),
                Schema.DepthwiseConv2DOptions.strideW: .uint32(UInt32(strideW)),
                Schema.DepthwiseConv2DOptions.strideH: .uint32(UInt32(strideH)),
                Schema.DepthwiseConv2DOptions.depthMultiplier: .uint32(UInt32(multiplier)),
                Schema.DepthwiseConv2DOptions.fusedActivationFunction: .uint8(Self.activationCode(activation)),
            ]
            return convolution(
                Schema.BuiltinOperator.depthwiseConv2D, inputs[0], filter: filter, filterShape: filterShape, bias: bias,
                options: (Schema.BuiltinOptions.depthwiseConv2DOptions, .table(options)), layer: layer, name: name)
        case .fullyConnected(let weights, _, let bias, let activation):
            return fullyConnected(
                inputs[0], weights: weights, bias: bias, activation: activation, outputShape: layer.outputShape, name: name,
                output: name)
        default:
            return weightlessLayer(layer, inputs: inputs, name: name)
        }
    }

    /// `ADD`, `AVERAGE_POOL_2D`, `MEAN` over axes 1 and 2 (dimensions kept), `RESHAPE`.
    private mutating func weightlessLayer(_ layer: TailLayer, inputs: [Int32], name: String) -> Int32 {
        let output = tensor(name, shape: layer.outputShape)
        switch layer.operation {
        case .add(let activation):
            append(
                code(Schema.BuiltinOperator.add), inputs: inputs, outputs: [output],
                options: (Schema.BuiltinOptions.addOptions, Self.activationOptions(activation)))
        case .averagePool2D(let filterH, let filterW, let strideH, let strideW, let padding, let activation):
            let options: [Int: FlatBufferValue] = [
                Schema.Pool2DOptions.padding: .uint8(Self.paddingCode(padding)),
                Schema.Pool2DOptions.strideW: .uint32(UInt32(strideW)), Schema.Pool2DOptions.strideH: .uint32(UInt32(strideH)),
                Schema.Pool2DOptions.filterWidth: .uint32(UInt32(filterW)),
                Schema.Pool2DOptions.filterHeight: .uint32(UInt32(filterH)),
                Schema.Pool2DOptions.fusedActivationFunction: .uint8(Self.activationCode(activation)),
            ]
            append(
                code(Schema.BuiltinOperator.averagePool2D), inputs: inputs, outputs: [output],
                options: (Schema.BuiltinOptions.pool2DOptions, .table(options)))
        case .meanOverSpace:
            let axes = int32Constant("\(name)/axes", values: [1, 2])
            append(
                code(Schema.BuiltinOperator.mean), inputs: [inputs[0], axes], outputs: [output],
                options: (Schema.BuiltinOptions.reducerOptions, .table([Schema.ReducerOptions.keepDims: .uint8(1)])))
        case .reshape(let shape):
            let newShape = shape.map { Int32($0) }
            let shapeTensor = int32Constant("\(name)/shape", values: newShape)
            append(
                code(Schema.BuiltinOperator.reshape), inputs: [inputs[0], shapeTensor], outputs: [output],
                options: (Schema.BuiltinOptions.reshapeOptions, .table([Schema.ReshapeOptions.newShape: .int32s(newShape)])))
        case .conv2D, .depthwiseConv2D, .fullyConnected:
            preconditionFailure("layers with weights are written by tailLayer")
        }
        return output
    }

    /// A convolution with its filter and bias as new float32 constants.
    private mutating func convolution(
        _ builtin: Int32, _ input: Int32, filter: [Float], filterShape: [Int], bias: [Float],
        options: (type: UInt8, table: FlatBufferValue), layer: TailLayer, name: String
    ) -> Int32 {
        let filterTensor = floatConstant("\(name)/filter", shape: filterShape, values: filter)
        let biasTensor = floatConstant("\(name)/bias", shape: [bias.count], values: bias)
        let output = tensor(name, shape: layer.outputShape)
        append(code(builtin), inputs: [input, filterTensor, biasTensor], outputs: [output], options: options)
        return output
    }
}
