import CImageCodecs
import TasksCommon

/// PNG decoding through the libpng shim in `CImageCodecs`.
enum PNGCodec {
    /// Decodes a PNG file to `.gray8`, `.rgb8` or `.rgba8` (see `cic_png_read_info`).
    ///
    /// - Throws: `TasksError` `invalidArgumentError` with libpng's message, or the
    ///   size-limit error of `ImageDecoder.checkDimensions`.
    static func decode(_ bytes: [UInt8], source: String) throws(TasksError) -> PixelImage {
        // The size limit first, straight from IHDR (always the first chunk), before libpng
        // allocates its row buffers.
        if bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8),
           let width = ExifReader.readUInt32(bytes[...], at: 16, bigEndian: true),
           let height = ExifReader.readUInt32(bytes[...], at: 20, bigEndian: true), width > 0, height > 0 {
            try ImageDecoder.checkDimensions(width: Int(width), height: Int(height), source: source)
        }
        var info = cic_image_info()
        if let message = bytes.withUnsafeBufferPointer({ data in
            callCodec { cic_png_read_info(data.baseAddress, data.count, &info, $0, $1) }
        }) {
            throw ImageDecoder.decodingError(source, message)
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
            if let message = bytes.withUnsafeBufferPointer({ data in
                callCodec { cic_png_decode(data.baseAddress, data.count, &info, buffer.baseAddress, buffer.count, bytesPerRow, $0, $1) }
            }) {
                return ImageDecoder.decodingError(source, message)
            }
            return nil
        }
        return PixelImage(unchecked: pixels, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
    }
}
