/// The `ImageProperties` content of an image tensor.
///
/// Mirrors `tflite::ImageProperties` (metadata schema); `default_size` is ignored.
/// MediaPipe requires `colorSpace == .rgb` when the input tensor has these properties.
package struct ImageProperties: Equatable, Sendable {
    /// The color space of the image tensor, `tflite::ColorSpaceType`.
    package enum ColorSpace: Equatable, Hashable, Sendable {
        /// `UNKNOWN` (0), also the value when the field is absent.
        case unknown
        /// `RGB` (1).
        case rgb
        /// `GRAYSCALE` (2).
        case grayscale
        /// A value this schema version does not name, kept as stored.
        case other(Int8)

        /// Maps the stored schema value.
        package init(rawValue: Int8) {
            switch rawValue {
            case 0: self = .unknown
            case 1: self = .rgb
            case 2: self = .grayscale
            default: self = .other(rawValue)
            }
        }

        /// The stored schema value.
        package var rawValue: Int8 {
            switch self {
            case .unknown: 0
            case .rgb: 1
            case .grayscale: 2
            case .other(let value): value
            }
        }
    }

    /// `color_space`; `.unknown` when absent.
    package var colorSpace: ColorSpace

    /// Creates image properties.
    package init(colorSpace: ColorSpace) {
        self.colorSpace = colorSpace
    }

    /// Decodes an `ImageProperties` table.
    init(table: FlatBufferTable) throws(FlatBufferError) {
        colorSpace = ColorSpace(rawValue: Int8(bitPattern: try table.uint8(Schema.ImageProperties.colorSpace, "color_space")))
    }
}
