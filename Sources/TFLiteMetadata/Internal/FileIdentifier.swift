import Foundation
import TasksCommon

/// What a file that failed to parse as a model was, from its first bytes: the reason a user
/// sees instead of a FlatBuffer offset when they gave a photo, a zip or a text file as a model.
enum FileIdentifier {
    /// The FlatBuffers file identifier of TFLite models, at bytes 4-7.
    static let tfliteModel = Data("TFL3".utf8)

    /// The reason for a file that is not a TFLite model at all, or nil when its bytes 4-7 are
    /// "TFL3" (it is a model, damaged: the FlatBuffer error says where).
    static func notAModelReason(_ bytes: Data) -> String? {
        let identifier = bytes.dropFirst(4).prefix(4)
        guard identifier != tfliteModel else { return nil }
        let shown = identifier.isEmpty ? "none (the file has \(bytes.count) bytes)" : hex(identifier)
        let guess = formatName(bytes).map { " It looks like \($0)." } ?? ""
        return "The file is not a TFLite model: its file identifier (bytes 4-7) is \(shown), not \"TFL3\".\(guess)"
    }

    /// A common format named by its magic number, or nil.
    private static func formatName(_ bytes: Data) -> String? {
        let magic = Array(bytes.prefix(8))
        let formats: [([UInt8], String)] = [
            ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
            (Array("RIFF".utf8), "a RIFF file (a WebP image?)"),
            ([0x50, 0x4B, 0x03, 0x04], "a zip archive (an AutoML export or a MediaPipe .task bundle: give its model.tflite)"),
            ([0x1F, 0x8B], "a gzip archive"),
            (Array("<".utf8), "an HTML or XML document"),
            (Array("{".utf8), "a JSON document"),
        ]
        return formats.first { magic.starts(with: $0.0) }?.1
    }

    private static func hex(_ bytes: Data) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0\(digits)" : digits
        }.joined(separator: " ")
    }
}

/// `decodingFlatBuffer` for a whole model file: when the FlatBuffer does not parse and the file
/// lacks the "TFL3" identifier too, the error says the file is not a TFLite model (with its
/// identifier and format) rather than where parsing stopped. Errors `body` raises for other
/// reasons pass through.
package func decodingModel<T>(_ bytes: Data, invalid: String, subject: String, _ body: () throws -> T) throws(TasksError) -> T {
    do {
        return try body()
    } catch let error as FlatBufferError {
        // The identifier is optional in a model, so it is only consulted once parsing failed.
        throw .invalidArgument(FileIdentifier.notAModelReason(bytes) ?? "\(invalid): \(error)")
    } catch let error as TasksError {
        throw error
    } catch {
        throw .internal("Unexpected error while reading \(subject): \(error)")
    }
}
