import CImageCodecs
import TasksCommon

/// Lossy WebP encoding through libwebp's simple API (called directly: it needs no setjmp).
enum WebPEncoder {
    /// Encodes packed RGB8 pixels (`width * 3` bytes per row) as a lossy WebP file.
    ///
    /// The corresponding C function is `WebPEncodeRGB`; its output is copied and freed with
    /// `WebPFree` at once.
    ///
    /// - Parameters:
    ///   - rgb: `width * height * 3` bytes, row after row (borrowed for the call).
    ///   - width: Pixels per row, 1...16383 (WebP's limit).
    ///   - height: Rows, 1...16383.
    ///   - quality: libwebp's quality factor, 0 (smallest) to 100 (best).
    /// - Throws: `TasksError` `internalError` when libwebp fails (bad size or out of memory).
    static func encodeRGB(_ rgb: [UInt8], width: Int, height: Int, quality: Float) throws(TasksError) -> [UInt8] {
        precondition(rgb.count == width * height * 3, "\(rgb.count) bytes for \(width)x\(height) RGB")
        var output: UnsafeMutablePointer<UInt8>?
        // +1: libwebp allocates `output`, which we own and free with WebPFree.
        let size = rgb.withUnsafeBufferPointer {
            WebPEncodeRGB($0.baseAddress, Int32(width), Int32(height), Int32(width * 3), quality, &output)
        }
        defer { WebPFree(output) }
        guard size > 0, let output else {
            throw .internal("WebP encoding of a \(width)x\(height) thumbnail failed (libwebp returned no data).")
        }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
