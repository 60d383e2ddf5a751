import GraphSurgery
import TFLiteMetadata

/// What one step of the engine computes; the geometry is checked when the network is built.
enum Kernel: Sendable {
    case convolution(Convolution)
    case depthwise(DepthwiseConvolution)
    case add
    case averagePool(AveragePool)
    /// A copy: NHWC data is already in the target shape's row-major order.
    case reshape
    case fullyConnected(inputs: Int, outputs: Int)
    /// Only between the tail and the head; not one of the network's layers.
    case dropout
}

/// One step of the engine: a kernel, the values it reads (0 is the input; `i + 1` is step i's
/// output), its fused activation, and where its parameters are.
struct Stage: Sendable {
    let kernel: Kernel
    let inputs: [Int]
    let activation: LayerActivation
    /// Floats per example of the output.
    let outputCount: Int
    /// The index of the weights in the network's parameters (the bias follows), if any.
    let parameter: Int?
    /// The network's layer this step is (nil for the dropout step).
    let layer: Int?

    /// Floats of scratch per example (im2col rows).
    var scratchPerExample: Int {
        if case .convolution(let convolution) = kernel { return convolution.scratchPerImage }
        return 0
    }
}
