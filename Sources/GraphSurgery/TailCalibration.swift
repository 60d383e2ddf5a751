import Foundation
import TFLiteMetadata

/// The range each value of a trained tail took on calibration photos: what
/// `ClassifierHeadAppender.replacingTail(of:at:with:calibration:)` needs to write the tail in
/// int8 (TFLite's post-training quantization: activation ranges from min and max over a
/// representative data set, as Model Maker's `QuantizationConfig.for_int8` asks the converter).
package struct TailCalibration: Sendable, Equatable {
    /// Per value, numbered as `TailLayer.inputs`: 0 the cut tensor (dequantized), `i + 1` the
    /// output of layer `i`; the least and the greatest value seen (after fused activations).
    package var ranges: [ClosedRange<Float>]

    package init(ranges: [ClosedRange<Float>]) {
        self.ranges = ranges
    }

    /// The int8 quantization of a value seen in `range`, widened to hold 0 (so that zero, the
    /// padding and RELU's floor, is exact): `scale = (max − min) / 255`, the zero point where 0
    /// falls, as TFLite's converter nudges it.
    static func int8(_ range: ClosedRange<Float>) -> TensorQuantization {
        let low = min(range.lowerBound, 0)
        let high = max(range.upperBound, 0)
        let scale = max(high - low, 1e-6) / 255
        let zeroPoint = Int((-128 - low / scale).rounded())
        return TensorQuantization(scale: scale, zeroPoint: min(max(zeroPoint, -128), 127))
    }
}
