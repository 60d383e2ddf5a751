/// The element type of an image input tensor and how a sampled pixel byte becomes an element.
package enum TensorElement: Sendable, Equatable {
    /// One byte per channel: the sampled value 0...255 as it is (MediaPipe ignores the
    /// normalization and quantization metadata of uint8 models).
    case uint8
    /// One native-endian `Float` per channel: `p * scale + offset` for the sampled byte `p`,
    /// in single precision with the product rounded before the sum (not fused), as
    /// MediaPipe's `cv::Mat::convertTo` does on x86-64. For MediaPipe's NormalizationOptions
    /// use `init(mean:std:)`, which derives `scale` and `offset` as MediaPipe does.
    case float32(scale: Float, offset: Float)
    /// One native-endian `Float` per channel, each channel with its own conversion:
    /// `p * scale[c] + offset[c]` for the sampled byte `p` of channel `c` (0 red, 1 green,
    /// 2 blue), rounded as `float32`. With three equal pairs it gives exactly the `float32`
    /// tensor; `init(mean:std:)` chooses `float32` then, which is faster.
    case float32PerChannel(scale: SIMD3<Float>, offset: SIMD3<Float>)
    /// One `Int8` per channel, looked up in `table` by channel and sampled byte (full-integer
    /// quantized models; see `init(mean:std:quantizationScale:zeroPoint:)`).
    case int8(Int8Table)

    /// The bytes of one element: 1 or 4.
    package var byteCount: Int {
        switch self {
        case .uint8, .int8: 1
        case .float32, .float32PerChannel: 4
        }
    }

    /// The float conversion MediaPipe derives from one NormalizationOptions mean and std:
    /// the range `[(0 - mean) / std, (255 - mean) / std]` mapped from `[0, 255]`, so
    /// `scale = (max - min) / 255` and `offset = min`, all in single precision
    /// (`GetValueRangeTransformation`).
    ///
    /// - Parameters:
    ///   - mean: The normalization mean (for example 127.5).
    ///   - std: The normalization standard deviation, not 0 (for example 127.5).
    package init(mean: Float, std: Float) {
        let (scale, offset) = Self.transformation(mean: mean, std: std)
        self = .float32(scale: scale, offset: offset)
    }

    /// The float conversion of NormalizationOptions with one value or one per channel (red,
    /// green, blue), as the TFLite Support Task Library normalizes: channel `c` maps byte `p` to
    /// `(p - mean[c]) / std[c]`, computed as `init(mean:std:)` does for each channel. One value,
    /// or three equal ones, give exactly `init(mean:std:)`'s `float32` (MediaPipe's result).
    ///
    /// - Parameters:
    ///   - mean: 1 or 3 finite means.
    ///   - std: As many finite standard deviations, none 0.
    package init(mean: [Float], std: [Float]) {
        precondition(mean.count == std.count && (mean.count == 1 || mean.count == 3), "1 or 3 values each")
        if Set(mean).count == 1, Set(std).count == 1 {
            self.init(mean: mean[0], std: std[0])
            return
        }
        let channels = (0..<3).map { Self.transformation(mean: mean[$0], std: std[$0]) }
        self = .float32PerChannel(
            scale: SIMD3(channels.map(\.scale)), offset: SIMD3(channels.map(\.offset)))
    }

    /// An int8 input: the float a float model would take (NormalizationOptions applied as by
    /// `init(mean:std:)`), quantized with the input tensor's parameters:
    /// `clamp(round(value / quantizationScale) + zeroPoint, -128, 127)`, halves rounded away
    /// from zero as TFLite's QUANTIZE does.
    ///
    /// - Parameters:
    ///   - mean: 1 or 3 finite means.
    ///   - std: As many finite standard deviations, none 0.
    ///   - quantizationScale: The input tensor's scale, finite and > 0.
    ///   - zeroPoint: The input tensor's zero point.
    package init(mean: [Float], std: [Float], quantizationScale: Float, zeroPoint: Int) {
        let float = TensorElement(mean: mean, std: std)
        var values = [Int8](repeating: 0, count: 3 * 256)
        for channel in 0..<3 {
            for byte in 0..<256 {
                let real = Double(float.element(of: Float(byte), channel: channel))
                let quantized = (real / Double(quantizationScale)).rounded() + Double(zeroPoint)
                values[channel * 256 + byte] = Int8(min(max(quantized, -128), 127))
            }
        }
        self = .int8(Int8Table(values: values))
    }

    /// The float element of byte `value` in `channel` (float32 conversions only).
    private func element(of value: Float, channel: Int) -> Float {
        switch self {
        case let .float32(scale, offset): value * scale + offset
        case let .float32PerChannel(scale, offset): value * scale[channel] + offset[channel]
        case .uint8, .int8: preconditionFailure("not a float conversion")
        }
    }

    private static func transformation(mean: Float, std: Float) -> (scale: Float, offset: Float) {
        let rangeMin = (0 - mean) / std
        let rangeMax = (255 - mean) / std
        let scale = (rangeMax - rangeMin) / (255 - 0)
        return (scale, rangeMin - 0 * scale)
    }
}

/// The int8 element of each channel and byte value: `values[channel * 256 + byte]`.
package struct Int8Table: Sendable, Equatable {
    /// 768 values: red's 256, then green's, then blue's.
    package let values: [Int8]

    /// - Parameter values: 768 values, red's 256 first, then green's and blue's.
    package init(values: [Int8]) {
        precondition(values.count == 3 * 256, "256 values per channel")
        self.values = values
    }
}
