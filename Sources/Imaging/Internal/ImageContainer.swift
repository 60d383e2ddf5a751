/// The file formats `ImageDecoder` reads, recognized by their signatures.
enum ImageContainer: Sendable {
    /// JPEG: starts with FF D8 FF.
    case jpeg
    /// PNG: starts with the 8-byte PNG signature.
    case png
    /// WebP: a RIFF file whose form type is "WEBP".
    case webp

    /// The PNG file signature.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The container whose signature starts `bytes`, or nil.
    init?(sniffing bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            self = .jpeg
        } else if bytes.starts(with: Self.pngSignature) {
            self = .png
        } else if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}
