import LiteRT

/// How the elements of an output tensor become floats, as MediaPipe's
/// `TensorsDequantizationCalculator` makes them: FLOAT32 as they are, UINT8 and INT8 as
/// `scale · (q − zeroPoint)`.
enum Dequantization {
    /// Writes the first `count` elements of an output tensor as floats into `values`.
    /// - Parameters:
    ///   - bytes: the output tensor's bytes (at least `count` elements).
    ///   - count: the number of elements to read.
    ///   - quantization: the tensor's quantization, or nil for FLOAT32 elements.
    ///   - signed: whether the quantized elements are INT8 (else UINT8).
    ///   - values: at least `count` floats.
    static func read(
        _ bytes: UnsafeRawBufferPointer, count: Int, quantization: Quantization?, signed: Bool,
        into values: UnsafeMutableBufferPointer<Float>
    ) {
        if let quantization, signed {
            let zeroPoint = Float(quantization.zeroPoint), scale = quantization.scale
            for index in 0..<count {
                values[index] = scale * (Float(Int8(bitPattern: bytes[index])) - zeroPoint)
            }
        } else if let quantization {
            let zeroPoint = Float(quantization.zeroPoint), scale = quantization.scale
            for index in 0..<count {
                values[index] = scale * (Float(bytes[index]) - zeroPoint)
            }
        } else {
            for index in 0..<count {
                values[index] = bytes.load(fromByteOffset: index * 4, as: Float.self)
            }
        }
    }
}
