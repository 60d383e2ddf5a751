/// The memory layout of one pixel: 8 bits per channel, channels in the named order.
public enum PixelFormat: Sendable {
    /// Red, green, blue, alpha (straight, not premultiplied): 4 bytes.
    case rgba8
    /// Blue, green, red, alpha (straight, not premultiplied), as `kCVPixelFormatType_32BGRA`: 4 bytes.
    case bgra8
    /// Red, green, blue: 3 bytes.
    case rgb8
    /// One luminance byte.
    case gray8

    /// The bytes one pixel occupies: 4, 4, 3 or 1.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba8, .bgra8: 4
        case .rgb8: 3
        case .gray8: 1
        }
    }
}
