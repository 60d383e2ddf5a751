import CImageCodecs
import TasksCommon

/// JPEG decoding through the libjpeg-turbo shim in `CImageCodecs`.
enum JPEGCodec {
    /// Decodes a JPEG file to `.gray8` or `.rgb8` (CMYK and YCCK converted to RGB).
    ///
    /// - Parameters:
    ///   - bytes: The whole file (borrowed for the call).
    ///   - source: What to call the image in error messages.
    ///   - reduced: Decode at 1/2, 1/4 or 1/8 when that still covers the input (nil: every pixel).
    ///   - orientation: The file's EXIF orientation (for `reduced`).
    /// - Throws: `TasksError` `invalidArgumentError` with libjpeg's message (a premature end
    ///   of the file and corrupt data included: see the warning policy in jpeg_codec.c), the
    ///   size-limit error of `ImageDecoder.checkDimensions`, or `resourceExhaustedError` when
    ///   libjpeg needs more than `ImageDecoder.maxJPEGDecoderMemory`.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: TasksError.Subject, reduced: ReducedDecoding? = nil,
        orientation: ImageOrientation = .up
    ) throws(TasksError) -> PixelImage {
        var info = cic_image_info()
        if let failure = callCodec({ cic_jpeg_read_info(bytes.baseAddress, bytes.count, &info, $0, $1) }) {
            throw error(failure, info: info, source: source)
        }
        try ImageDecoder.checkDimensions(width: Int(info.width), height: Int(info.height), source: source)
        // The size at 1/denominator, as libjpeg rounds it (up).
        func size(_ denominator: Int) throws(TasksError) -> (width: Int, height: Int) {
            var width: UInt32 = 0, height: UInt32 = 0
            if let failure = callCodec({
                cic_jpeg_scaled_size(bytes.baseAddress, bytes.count, UInt32(denominator), &width, &height, $0, $1)
            }) {
                throw error(failure, info: info, source: source)
            }
            return (Int(width), Int(height))
        }
        // The whole pixels at 1/denominator: a last row or column that stands for fewer than
        // `denominator` stored pixels blends in the encoder's padding beyond the edge (a tint
        // with some encoders), so it is left out.
        func whole(_ size: (width: Int, height: Int), _ denominator: Int) -> (width: Int, height: Int) {
            (min(size.width, max(1, Int(info.width) / denominator)), min(size.height, max(1, Int(info.height) / denominator)))
        }
        let denominator =
            try reduced?.denominator(fileOrientation: orientation) { denominator throws(TasksError) in
                whole(try size(denominator), denominator)
            } ?? 1
        let (width, height) = denominator == 1 ? (Int(info.width), Int(info.height)) : try size(denominator)
        let kept = denominator == 1 ? (width: width, height: height) : whole((width, height), denominator)
        let channels = Int(info.channels)
        let bytesPerRow = width * channels
        var pixels = try makePixels(byteCount: bytesPerRow * height) { buffer in
            callCodec {
                cic_jpeg_decode_scaled(
                    bytes.baseAddress, bytes.count, &info, UInt32(denominator), buffer.baseAddress, buffer.count,
                    bytesPerRow, ImageDecoder.maxJPEGDecoderMemory, $0, $1)
            }.map { error($0, info: info, source: source) }
        }
        switch channels {
        case 1:
            return PixelImage(unchecked: pixels, width: kept.width, height: kept.height, bytesPerRow: bytesPerRow, format: .gray8)
        case 3:
            return PixelImage(unchecked: pixels, width: kept.width, height: kept.height, bytesPerRow: bytesPerRow, format: .rgb8)
        default:
            convertCMYKToRGBInPlace(&pixels, pixelCount: width * height, inverted: info.inverted_cmyk != 0)
            return PixelImage(unchecked: pixels, width: kept.width, height: kept.height, bytesPerRow: width * 3, format: .rgb8)
        }
    }

    /// The error for a failed libjpeg call: `resourceExhaustedError` naming the size when
    /// libjpeg ran out of memory (in practice its memory limit), else the decoding error.
    static func error(_ failure: CodecFailure, info: cic_image_info, source: TasksError.Subject) -> TasksError {
        guard failure.outOfMemory else { return ImageDecoder.decodingError(source, failure.message) }
        let limit = ImageDecoder.maxJPEGDecoderMemory
        let kind = info.multiple_scans != 0 ? "progressive (multi-scan) " : ""
        let need = info.multiple_scans != 0 ? " for its whole-image DCT coefficients" : ""
        return TasksError(
            .resourceExhaustedError,
            "Failed to decode image: a \(kind)\(info.width)x\(info.height) JPEG with \(info.channels) components needs more than the decoder's memory limit of \(limit) bytes (\(limit >> 20) MiB)\(need) (libjpeg: \(failure.message)).",
            subject: source)
    }

    /// Converts packed CMYK pixels to packed RGB in the same array, then drops the unused
    /// tail. Uses Pillow's conversion (`R = (255 - K) - (C * (255 - K)) / 255`, rounded),
    /// so decoded CMYK files match the Python reference.
    ///
    /// - Parameters:
    ///   - inverted: Adobe's convention (0 = full ink), which Adobe-marked files store.
    static func convertCMYKToRGBInPlace(_ pixels: inout [UInt8], pixelCount: Int, inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            // Each RGB pixel is written at or before the CMYK pixel it comes from.
            for index in 0..<pixelCount {
                var cyan = Int(buffer[index * 4]), magenta = Int(buffer[index * 4 + 1])
                var yellow = Int(buffer[index * 4 + 2]), black = Int(buffer[index * 4 + 3])
                if inverted {
                    cyan = 255 - cyan; magenta = 255 - magenta; yellow = 255 - yellow; black = 255 - black
                }
                let white = 255 - black
                buffer[index * 3] = UInt8(white - multiplyDividing255(cyan, white))
                buffer[index * 3 + 1] = UInt8(white - multiplyDividing255(magenta, white))
                buffer[index * 3 + 2] = UInt8(white - multiplyDividing255(yellow, white))
            }
        }
        pixels.removeLast(pixels.count - pixelCount * 3)
    }

    /// `a * b / 255` rounded to nearest, for `a, b` in 0...255.
    @inline(__always)
    static func multiplyDividing255(_ a: Int, _ b: Int) -> Int {
        let product = a * b + 128
        return (product + (product >> 8)) >> 8
    }
}
