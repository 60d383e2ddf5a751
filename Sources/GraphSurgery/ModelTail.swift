import Foundation
import TFLiteMetadata
import TasksCommon

/// Padding of a convolution or pool, as TFLite's `Padding` (SAME 0, VALID 1).
package enum LayerPadding: Sendable, Equatable {
    case same, valid
}

/// A fused activation of TFLite's `ActivationFunctionType` that training supports.
package enum LayerActivation: Sendable, Equatable {
    case none, relu, relu6
}

/// One float operation of a model's tail, with its weights dequantized to float32.
///
/// Shapes follow TFLite's layouts (NHWC activations): `CONV_2D` filters `[out, kh, kw, in]`,
/// `DEPTHWISE_CONV_2D` filters `[1, kh, kw, in × multiplier]`, `FULLY_CONNECTED` weights
/// `[out, in]`; every bias is `[out]`.
package enum TailOperation: Sendable, Equatable {
    case conv2D(
        filter: [Float], filterShape: [Int], bias: [Float], strideH: Int, strideW: Int, padding: LayerPadding,
        activation: LayerActivation)
    case depthwiseConv2D(
        filter: [Float], filterShape: [Int], bias: [Float], strideH: Int, strideW: Int, padding: LayerPadding,
        depthMultiplier: Int, activation: LayerActivation)
    /// The sum of the layer's two inputs.
    case add(activation: LayerActivation)
    case averagePool2D(
        filterH: Int, filterW: Int, strideH: Int, strideW: Int, padding: LayerPadding, activation: LayerActivation)
    /// `MEAN` over height and width (axes 1 and 2), dimensions kept.
    case meanOverSpace
    /// `RESHAPE` to `shape` (batch first).
    case reshape(shape: [Int])
    case fullyConnected(weights: [Float], weightsShape: [Int], bias: [Float], activation: LayerActivation)
}

extension TailOperation {
    /// The operation's weights in TFLite's layout (`[out, kh, kw, in]`, `[1, kh, kw, channels]`,
    /// `[out, in]`) and its bias; nil for a weightless operation.
    package var weights: (values: [Float], shape: [Int], bias: [Float])? {
        switch self {
        case .conv2D(let filter, let shape, let bias, _, _, _, _): (filter, shape, bias)
        case .depthwiseConv2D(let filter, let shape, let bias, _, _, _, _, _): (filter, shape, bias)
        case .fullyConnected(let weights, let shape, let bias, _): (weights, shape, bias)
        default: nil
        }
    }

    var isFullyConnected: Bool {
        if case .fullyConnected = self { true } else { false }
    }
}

/// One layer of a tail: an operation, the values it reads (0 is the tail's input, the cut
/// tensor; `i + 1` is the output of layer `i`), its output's shape (batch first, `[1, ...]`)
/// and the name of the base's tensor it writes.
package struct TailLayer: Sendable, Equatable {
    package var operation: TailOperation
    package var inputs: [Int]
    package var outputShape: [Int]
    package var name: String

    package init(operation: TailOperation, inputs: [Int], outputShape: [Int], name: String) {
        self.operation = operation
        self.inputs = inputs
        self.outputShape = outputShape
        self.name = name
    }
}

/// The affine quantization of a tensor: `real = scale × (stored − zeroPoint)`.
package struct TensorQuantization: Sendable, Equatable {
    package var scale: Float
    package var zeroPoint: Int

    package init(scale: Float, zeroPoint: Int) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }
}
