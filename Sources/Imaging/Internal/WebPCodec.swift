import CImageCodecs
import TasksCommon

/// WebP decoding through libwebp (called directly: it needs no setjmp).
enum WebPCodec {
    /// Decodes a still WebP file (lossy or lossless) to `.rgba8` when it has alpha,
    /// else `.rgb8`, with libwebp's default (fancy) upsampling.
    ///
    /// - Parameters:
    ///   - bytes: The whole file (borrowed for the call).
    ///   - source: What to call the image in error messages.
    ///   - reduced: Decode at 1/2, 1/4 or 1/8 (libwebp's scaling, sides rounded up) when that
    ///     still covers the input (nil: every pixel).
    ///   - orientation: The file's EXIF orientation (for `reduced`).
    /// - Throws: `TasksError` `invalidArgumentError` naming libwebp's status, or the
    ///   size-limit error of `ImageDecoder.checkDimensions`. Animated files are rejected.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: TasksError.Subject, reduced: ReducedDecoding? = nil,
        orientation: ImageOrientation = .up
    ) throws(TasksError) -> PixelImage {
        var features = WebPBitstreamFeatures()
        // WebPGetFeatures: borrows the input, fills `features`.
        let status = WebPGetFeatures(bytes.baseAddress, bytes.count, &features)
        guard status == VP8_STATUS_OK else {
            throw ImageDecoder.decodingError(source, "invalid WebP header (\(describe(status)))")
        }
        guard features.has_animation == 0 else {
            throw ImageDecoder.decodingError(source, "animated WebP is not supported")
        }
        try ImageDecoder.checkDimensions(width: Int(features.width), height: Int(features.height), source: source)
        func size(_ denominator: Int) -> (width: Int, height: Int) {
            ((Int(features.width) + denominator - 1) / denominator, (Int(features.height) + denominator - 1) / denominator)
        }
        let denominator = try reduced?.denominator(fileOrientation: orientation, size: size) ?? 1
        let (width, height) = size(denominator)
        let format: PixelFormat = features.has_alpha != 0 ? .rgba8 : .rgb8
        let bytesPerRow = width * format.bytesPerPixel
        let pixels = try makePixels(byteCount: bytesPerRow * height) { buffer in
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else {
                return ImageDecoder.decodingError(source, "libwebp version mismatch")
            }
            if denominator > 1 {
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(width)
                config.options.scaled_height = Int32(height)
            }
            // Decode straight into our buffer (external memory: libwebp does not own it).
            config.output.colorspace = format == .rgba8 ? MODE_RGBA : MODE_RGB
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(bytesPerRow)
            config.output.u.RGBA.size = buffer.count
            let status = WebPDecode(bytes.baseAddress, bytes.count, &config)
            WebPFreeDecBuffer(&config.output)
            return status == VP8_STATUS_OK ? nil : ImageDecoder.decodingError(source, describe(status))
        }
        return PixelImage(unchecked: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
    }

    /// A readable name for a libwebp status.
    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "corrupt WebP bitstream"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported WebP feature"
        case VP8_STATUS_SUSPENDED: "decoding suspended"
        case VP8_STATUS_USER_ABORT: "decoding aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "truncated WebP data"
        default: "libwebp status \(status.rawValue)"
        }
    }
}
