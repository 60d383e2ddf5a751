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

    /// The bytes of one element: 1 or 4.
    package var byteCount: Int {
        switch self {
        case .uint8: 1
        case .float32: 4
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
        let rangeMin = (0 - mean) / std
        let rangeMax = (255 - mean) / std
        let scale = (rangeMax - rangeMin) / (255 - 0)
        self = .float32(scale: scale, offset: rangeMin - 0 * scale)
    }
}
