import GraphSurgery
import TFLiteMetadata
import TasksCommon

/// The shape checks of one weighted or windowed layer against the shape of the value it reads.
struct LayerChecks {
    let layer: TailLayer
    /// The input's shape, batch first.
    let input: [Int]

    /// The input's height, width and channels; refuses an input that is not `[1, H, W, C]`.
    func spatial() throws(TasksError) -> (height: Int, width: Int, channels: Int) {
        guard input.count == 4 else { throw StagePlanner.error(layer, "its input \(input) is not [1, H, W, C]") }
        return (input[1], input[2], input[3])
    }

    /// A `CONV_2D` with filter `[out, kh, kw, in]`.
    func convolution(
        filter: [Float], filterShape: [Int], bias: [Float], strides: (Int, Int), padding: LayerPadding
    ) throws(TasksError) -> Convolution {
        let size = try spatial()
        try checkWeights(filter, filterShape, rank: 4, name: "filter")
        guard filterShape[3] == size.channels else {
            throw StagePlanner.error(
                layer, "the filter \(filterShape) takes \(filterShape[3]) channels, the input \(input) has \(size.channels)")
        }
        try checkBias(bias, filterShape[0])
        let window = try makeWindow((filterShape[1], filterShape[2]), strides, padding)
        try checkOutput([1, window.outputHeight, window.outputWidth, filterShape[0]])
        return Convolution(window: window, inputChannels: size.channels, outputChannels: filterShape[0])
    }

    /// A `DEPTHWISE_CONV_2D` with filter `[1, kh, kw, in × multiplier]`.
    func depthwise(
        filter: [Float], filterShape: [Int], bias: [Float], strides: (Int, Int), padding: LayerPadding, multiplier: Int
    ) throws(TasksError) -> DepthwiseConvolution {
        let size = try spatial()
        try checkWeights(filter, filterShape, rank: 4, name: "filter")
        guard multiplier >= 1, filterShape[0] == 1, filterShape[3] == size.channels * multiplier else {
            throw StagePlanner.error(
                layer,
                "the filter \(filterShape) does not fit \(size.channels) input channels with depth multiplier \(multiplier) "
                    + "([1, kh, kw, \(size.channels * multiplier)] needed)")
        }
        try checkBias(bias, filterShape[3])
        let window = try makeWindow((filterShape[1], filterShape[2]), strides, padding)
        try checkOutput([1, window.outputHeight, window.outputWidth, filterShape[3]])
        return DepthwiseConvolution(window: window, inputChannels: size.channels, multiplier: multiplier)
    }

    /// An `AVERAGE_POOL_2D` (or `MEAN`, a VALID pool over the whole image).
    func pool(kernel: (Int, Int), strides: (Int, Int), padding: LayerPadding) throws(TasksError) -> AveragePool {
        let size = try spatial()
        let window = try makeWindow(kernel, strides, padding)
        try checkOutput([1, window.outputHeight, window.outputWidth, size.channels])
        return AveragePool(window: window, channels: size.channels)
    }

    /// A `FULLY_CONNECTED` with weights `[out, in]` on the flattened input; returns `out`.
    func fullyConnected(weights: [Float], weightsShape: [Int], bias: [Float]) throws(TasksError) -> Int {
        try checkWeights(weights, weightsShape, rank: 2, name: "weights")
        let inputs = StagePlanner.count(input)
        guard weightsShape[1] == inputs else {
            throw StagePlanner.error(
                layer, "the weights \(weightsShape) take \(weightsShape[1]) values, the input \(input) has \(inputs)")
        }
        try checkBias(bias, weightsShape[0])
        try checkOutput([1, weightsShape[0]])
        return weightsShape[0]
    }

    /// Refuses weights whose shape is not of `rank` positive sizes or whose count is not its product.
    private func checkWeights(_ values: [Float], _ shape: [Int], rank: Int, name: String) throws(TasksError) {
        guard shape.count == rank, shape.allSatisfy({ $0 > 0 }) else {
            throw StagePlanner.error(layer, "the \(name) shape \(shape) is not \(rank) positive sizes")
        }
        let expected = shape.reduce(1, *)
        guard values.count == expected else {
            throw StagePlanner.error(layer, "\(values.count) \(name) values for the shape \(shape) (\(expected) needed)")
        }
    }

    private func checkBias(_ bias: [Float], _ outputs: Int) throws(TasksError) {
        guard bias.count == outputs else {
            throw StagePlanner.error(layer, "\(bias.count) bias values for \(outputs) outputs")
        }
    }

    private func makeWindow(_ kernel: (Int, Int), _ strides: (Int, Int), _ padding: LayerPadding) throws(TasksError) -> Window {
        let size = try spatial()
        guard
            let window = Window(
                height: size.height, width: size.width, kernelHeight: kernel.0, kernelWidth: kernel.1,
                strideHeight: strides.0, strideWidth: strides.1, padding: padding)
        else {
            throw StagePlanner.error(
                layer, "a \(kernel.0)×\(kernel.1) window with strides \(strides.0)×\(strides.1) does not fit the input \(input)")
        }
        return window
    }

    /// Refuses a layer whose stated output shape is not the one its input and geometry give.
    private func checkOutput(_ computed: [Int]) throws(TasksError) {
        guard layer.outputShape == computed else {
            throw StagePlanner.error(layer, "the output shape is \(layer.outputShape), but the input \(input) gives \(computed)")
        }
    }
}
