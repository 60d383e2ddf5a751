import GraphSurgery
import TFLiteMetadata

/// Fused activations, forward in place on a layer's output and backward from that output
/// (RELU and RELU6 have a derivative that the output alone decides, so no pre-activation is kept).
extension LayerActivation {
    /// Applies the activation to `count` floats in place.
    func apply(_ values: UnsafeMutablePointer<Float>, count: Int) {
        switch self {
        case .none:
            return
        case .relu:
            for i in 0..<count { values[i] = max(values[i], 0) }
        case .relu6:
            for i in 0..<count { values[i] = min(max(values[i], 0), 6) }
        }
    }

    /// Multiplies the gradient by the activation's derivative, read from the activated `output`:
    /// zero where the output was clamped (at 0, or at 6 for RELU6).
    func backward(_ gradient: UnsafeMutablePointer<Float>, output: UnsafePointer<Float>, count: Int) {
        switch self {
        case .none:
            return
        case .relu:
            for i in 0..<count where output[i] <= 0 { gradient[i] = 0 }
        case .relu6:
            for i in 0..<count where output[i] <= 0 || output[i] >= 6 { gradient[i] = 0 }
        }
    }
}
