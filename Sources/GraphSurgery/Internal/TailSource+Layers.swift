import Foundation
import TFLiteMetadata
import TasksCommon

extension TailSource {
    /// The operators training reads into `TailLayer`s.
    static let trainableOperators: Set<Int32> = [
        Schema.BuiltinOperator.conv2D, Schema.BuiltinOperator.depthwiseConv2D, Schema.BuiltinOperator.add,
        Schema.BuiltinOperator.averagePool2D, Schema.BuiltinOperator.mean, Schema.BuiltinOperator.reshape,
        Schema.BuiltinOperator.fullyConnected,
    ]

    /// The layers of the operators after tensor `cut`'s producer up to tensor `feature`'s, in
    /// execution order; layer inputs are 0 for the cut and `i + 1` for layer `i`'s output.
    func layers(from cut: Int, to feature: Int) throws -> [TailLayer] {
        guard let first = producers[cut] else { throw notComputed(cut, role: "cut") }
        guard let last = producers[feature] else { throw notComputed(feature, role: "feature") }
        guard first < last else {
            throw TasksError.invalidArgument("The cut \(label(cut)) is not computed before the feature \(label(feature)).")
        }
        var values: [Int32: Int] = [Int32(cut): 0]
        var layers: [TailLayer] = []
        for index in (first + 1)...last {
            let operation = graph.operations[index]
            guard Self.trainableOperators.contains(operation.builtinCode), operation.outputs.count == 1 else {
                throw TasksError.invalidArgument(try unsupported(index, feature: feature))
            }
            let inputs = try dataInputs(of: index).map { tensor throws in
                guard let value = values[tensor] else { throw TasksError.invalidArgument(notABoundary(cut, index, tensor)) }
                return value
            }
            let output = Int(operation.outputs[0])
            let shape = graph.tensors[output].shape.map(Int.init)
            let name = graph.tensors[output].name
            for (position, step) in try self.operations(of: index, outputShape: shape).enumerated() {
                let stepInputs = position == 0 ? inputs : [layers.count]
                layers.append(TailLayer(operation: step.operation, inputs: stepInputs, outputShape: step.shape, name: name))
            }
            values[Int32(output)] = layers.count
        }
        return layers
    }

    /// The computed tensors an operator reads (its constants are weights or parameters).
    private func dataInputs(of index: Int) throws -> [Int32] {
        let operation = graph.operations[index]
        let count = operation.builtinCode == Schema.BuiltinOperator.add ? 2 : 1
        guard operation.inputs.count >= count, !operation.inputs.prefix(count).contains(where: isConstant) else {
            throw TasksError.invalidArgument(
                "\(label(operator: index)) reads a constant where training expects a computed tensor.")
        }
        return Array(operation.inputs.prefix(count))
    }

    /// The operation(s) of operator `index` with their output shapes: one, or for a `MEAN`
    /// without kept dimensions the mean and a `RESHAPE` to `outputShape`.
    private func operations(of index: Int, outputShape: [Int]) throws -> [(operation: TailOperation, shape: [Int])] {
        switch graph.operations[index].builtinCode {
        case Schema.BuiltinOperator.conv2D: return [(try convolution(index), outputShape)]
        case Schema.BuiltinOperator.depthwiseConv2D: return [(try depthwiseConvolution(index), outputShape)]
        case Schema.BuiltinOperator.add:
            let activation = try options(of: index)?.uint8(Schema.FusedActivationOptions.fusedActivationFunction, "activation")
            return [(.add(activation: try self.activation(activation ?? 0, index)), outputShape)]
        case Schema.BuiltinOperator.averagePool2D: return [(try averagePool(index), outputShape)]
        case Schema.BuiltinOperator.mean: return try mean(index, outputShape: outputShape)
        case Schema.BuiltinOperator.reshape: return [(.reshape(shape: outputShape), outputShape)]
        default: return [(try fullyConnected(index), outputShape)]
        }
    }

    private func convolution(_ index: Int) throws -> TailOperation {
        let options = try options(of: index)
        try checkDilation(options, Schema.Conv2DOptions.dilationWFactor, Schema.Conv2DOptions.dilationHFactor, index)
        let (filter, filterShape, bias) = try weights(of: index, outputAxis: 0)
        let strides = try self.strides(options, Schema.Conv2DOptions.strideH, Schema.Conv2DOptions.strideW, index)
        return .conv2D(
            filter: filter, filterShape: filterShape, bias: bias, strideH: strides.h, strideW: strides.w,
            padding: try padding(options?.uint8(Schema.Conv2DOptions.padding, "padding") ?? 0, index),
            activation: try activation(activationCode(index), index))
    }

    /// A depthwise convolution; its multiplier is the filter's channels over the input's, since
    /// converters do not always store `depth_multiplier` consistently.
    private func depthwiseConvolution(_ index: Int) throws -> TailOperation {
        let options = try options(of: index)
        try checkDilation(
            options, Schema.DepthwiseConv2DOptions.dilationWFactor, Schema.DepthwiseConv2DOptions.dilationHFactor, index)
        let (filter, filterShape, bias) = try weights(of: index, outputAxis: 3)
        let inputChannels = graph.tensors[Int(graph.operations[index].inputs[0])].shape.last.map(Int.init) ?? 0
        guard inputChannels > 0, filterShape.count == 4, filterShape[3] % inputChannels == 0 else {
            throw TasksError.invalidArgument(
                "The filter \(filterShape) of \(label(operator: index)) is not a multiple of its \(inputChannels) input channels."
            )
        }
        let strides = try self.strides(
            options, Schema.DepthwiseConv2DOptions.strideH, Schema.DepthwiseConv2DOptions.strideW, index)
        return .depthwiseConv2D(
            filter: filter, filterShape: filterShape, bias: bias, strideH: strides.h, strideW: strides.w,
            padding: try padding(options?.uint8(Schema.DepthwiseConv2DOptions.padding, "padding") ?? 0, index),
            depthMultiplier: filterShape[3] / inputChannels, activation: try activation(activationCode(index), index))
    }

    private func averagePool(_ index: Int) throws -> TailOperation {
        let options = try options(of: index)
        let strides = try self.strides(options, Schema.Pool2DOptions.strideH, Schema.Pool2DOptions.strideW, index)
        let filterH = Int(try options?.uint32(Schema.Pool2DOptions.filterHeight, "filter_height") ?? 0)
        let filterW = Int(try options?.uint32(Schema.Pool2DOptions.filterWidth, "filter_width") ?? 0)
        guard filterH >= 1, filterW >= 1 else {
            throw TasksError.invalidArgument("\(label(operator: index)) has a \(filterH)×\(filterW) filter.")
        }
        return .averagePool2D(
            filterH: filterH, filterW: filterW, strideH: strides.h, strideW: strides.w,
            padding: try padding(options?.uint8(Schema.Pool2DOptions.padding, "padding") ?? 0, index),
            // A pool of clamped values stays within their range: no clamp is implied by its quantization.
            activation: try activation(
                options?.uint8(Schema.Pool2DOptions.fusedActivationFunction, "activation") ?? 0, index, impliedClamp: false))
    }

    /// `MEAN` over axes 1 and 2; without kept dimensions, followed by a reshape to its output.
    private func mean(_ index: Int, outputShape: [Int]) throws -> [(operation: TailOperation, shape: [Int])] {
        let operation = graph.operations[index]
        let axes = try int32Constant(operation.inputs.count > 1 ? operation.inputs[1] : -1, role: "axis", of: index)
        guard Set(axes) == [1, 2], axes.count == 2 else {
            throw TasksError.invalidArgument(
                "\(label(operator: index)) averages over axes \(axes); training supports MEAN over axes [1, 2].")
        }
        guard try options(of: index)?.uint8(Schema.ReducerOptions.keepDims, "keep_dims") == 1 else {
            let channels = outputShape.last ?? 0
            return [(.meanOverSpace, [1, 1, 1, channels]), (.reshape(shape: outputShape), outputShape)]
        }
        return [(.meanOverSpace, outputShape)]
    }

    private func fullyConnected(_ index: Int) throws -> TailOperation {
        let (weights, weightsShape, bias) = try weights(of: index, outputAxis: 0)
        let code = try options(of: index)?.uint8(Schema.FusedActivationOptions.fusedActivationFunction, "activation") ?? 0
        return .fullyConnected(weights: weights, weightsShape: weightsShape, bias: bias, activation: try activation(code, index))
    }
}
