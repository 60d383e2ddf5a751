import CImageCodecs
import TasksCommon

/// JPEG decoding through the libjpeg-turbo shim in `CImageCodecs`.
enum JPEGCodec {
    /// Decodes a JPEG file to `.gray8` or `.rgb8` (CMYK and YCCK converted to RGB).
    ///
    /// - Throws: `TasksError` `invalidArgumentError` with libjpeg's message, or the
    ///   size-limit error of `ImageDecoder.checkDimensions`.
    static func decode(_ bytes: [UInt8], source: String) throws(TasksError) -> PixelImage {
        var info = cic_image_info()
        if let message = bytes.withUnsafeBufferPointer({ data in
            callCodec { cic_jpeg_read_info(data.baseAddress, data.count, &info, $0, $1) }
        }) {
            throw ImageDecoder.decodingError(source, message)
        }
        let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
        try ImageDecoder.checkDimensions(width: width, height: height, source: source)
        let bytesPerRow = width * channels
        var pixels = try makePixels(byteCount: bytesPerRow * height) { buffer in
            if let message = bytes.withUnsafeBufferPointer({ data in
                callCodec { cic_jpeg_decode(data.baseAddress, data.count, &info, buffer.baseAddress, buffer.count, bytesPerRow, $0, $1) }
            }) {
                return ImageDecoder.decodingError(source, message)
            }
            return nil
        }
        switch channels {
        case 1:
            return PixelImage(unchecked: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: .gray8)
        case 3:
            return PixelImage(unchecked: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: .rgb8)
        default:
            convertCMYKToRGBInPlace(&pixels, pixelCount: width * height, inverted: info.inverted_cmyk != 0)
            return PixelImage(unchecked: pixels, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
        }
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
