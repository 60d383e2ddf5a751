import CImageCodecs
import TasksCommon

/// PNG decoding through the libpng shim in `CImageCodecs`.
enum PNGCodec {
    /// The largest width and height accepted: libpng's user limit (`CIC_PNG_MAX_SIDE`,
    /// 1,000,000), which bounds libpng's row buffers.
    static let maxSideLength = Int(CIC_PNG_MAX_SIDE)

    /// Decodes a PNG file to `.gray8`, `.rgb8` or `.rgba8` (see `cic_png_read_info`).
    ///
    /// - Parameters:
    ///   - bytes: The whole file (borrowed for the call).
    ///   - source: What to call the image in error messages.
    /// - Throws: `TasksError` `invalidArgumentError` with libpng's message, or the
    ///   size-limit error of `ImageDecoder.checkDimensions` or of `maxSideLength`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, source: TasksError.Subject) throws(TasksError) -> PixelImage {
        // The size limits first, straight from IHDR (always the first chunk), before libpng
        // allocates its row buffers or refuses the header with a vaguer message.
        if bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8),
            let width = ExifReader.readUInt32(bytes, at: 16, bigEndian: true),
            let height = ExifReader.readUInt32(bytes, at: 20, bigEndian: true), width > 0, height > 0
        {
            try checkSides(width: Int(width), height: Int(height), source: source)
            try ImageDecoder.checkDimensions(width: Int(width), height: Int(height), source: source)
        }
        var info = cic_image_info()
        if let failure = callCodec({ cic_png_read_info(bytes.baseAddress, bytes.count, &info, $0, $1) }) {
            throw ImageDecoder.decodingError(source, failure.message)
        }
        let width = Int(info.width), height = Int(info.height), channels = Int(info.channels)
        try ImageDecoder.checkDimensions(width: width, height: height, source: source)
        let format: PixelFormat
        switch channels {
        case 1: format = .gray8
        case 3: format = .rgb8
        default: format = .rgba8
        }
        let bytesPerRow = width * channels
        let pixels = try makePixels(byteCount: bytesPerRow * height) { buffer in
            callCodec {
                cic_png_decode(bytes.baseAddress, bytes.count, &info, buffer.baseAddress, buffer.count, bytesPerRow, $0, $1)
            }.map { ImageDecoder.decodingError(source, $0.message) }
        }
        return PixelImage(unchecked: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
    }

    /// Refuses a side longer than `maxSideLength`, naming the size and the limit.
    static func checkSides(width: Int, height: Int, source: TasksError.Subject) throws(TasksError) {
        guard width <= maxSideLength, height <= maxSideLength else {
            throw TasksError.invalidArgument(
                "The image is too large: \(width)x\(height) pixels, but PNG width and height are limited to \(maxSideLength) pixels (libpng's limit).",
                subject: source)
        }
    }
}
