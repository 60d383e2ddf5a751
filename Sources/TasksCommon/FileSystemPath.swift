/// A path as the system gives it: bytes, which need not be valid UTF-8.
///
/// Linux file names are any bytes but "/" and NUL; `String` and Foundation's `URL` replace
/// invalid UTF-8 with U+FFFD, after which the file cannot be opened. This keeps the bytes for
/// the system calls and shows them readably (`description`) in messages and output.
/// `MPImage(contentsOfFile:)` and ML Kit's `VisionImage(contentsOfFile:)` take one; not in
/// MediaPipe or ML Kit, whose paths are `String`s (Apple's file systems require UTF-8 names).
public struct FileSystemPath: Sendable, Hashable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// The path spelled by `string` (its UTF-8 bytes).
    public init(_ string: String) {
        bytes = Array(string.utf8)
    }

    /// The path made of `bytes` (no NUL inside).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// `self` followed by "/" and `component` (no "/" added when `self` ends with one).
    package func appending(_ component: [UInt8]) -> FileSystemPath {
        let separator: [UInt8] = bytes.last == UInt8(ascii: "/") || bytes.isEmpty ? [] : [UInt8(ascii: "/")]
        return FileSystemPath(bytes: bytes + separator + component)
    }

    /// The last component's extension, lower-cased ("jpg"), or "" when it has none.
    package var lowercasedExtension: String {
        let name = bytes.split(separator: UInt8(ascii: "/")).last ?? []
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
    }

    /// Whether the bytes are valid UTF-8 (then `description` is exactly the path).
    package var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The path as text: valid UTF-8 as it is, each byte of an invalid sequence as `\xNN`.
    public var description: String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<offset + length] {
                    let hex = String(byte, radix: 16, uppercase: true)
                    text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                }
                offset += length
            case .emptyInput:
                return text
            }
        }
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    package func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}
