import Foundation

/// BYTES tensors in the binary tensor data extension: each element a 4-byte little-endian
/// length followed by that many bytes.
enum BinaryTensor {
    /// The elements of a binary BYTES tensor.
    /// - Parameter count: the elements its shape declares; more is an error found at the first
    ///   extra element, before any more are made (zero-length elements cost 4 bytes each).
    /// - Throws: `HTTPError` 400 when a length runs past the end, or more than `count` follow.
    static func elements(_ data: Data, count: Int, input: String) throws(HTTPError) -> [Data] {
        var elements: [Data] = []
        var position = data.startIndex
        while position < data.endIndex {
            guard elements.count < count else {
                throw .badRequest(
                    "Input '\(input)' has shape [\(count)], but more elements follow in the binary data "
                        + "(\(data.endIndex - position) bytes after element \(count - 1)).")
            }
            guard data.endIndex - position >= 4 else {
                throw .badRequest("Input '\(input)', element \(elements.count): the binary data ends inside a length prefix.")
            }
            let length = data[position..<position + 4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            position += 4
            guard data.endIndex - position >= length else {
                throw .badRequest(
                    "Input '\(input)', element \(elements.count): the length prefix says \(length) bytes, "
                        + "but \(data.endIndex - position) remain.")
            }
            elements.append(data[position..<position + length])
            position += length
        }
        return elements
    }

    /// The binary form of `elements`.
    static func encode(_ elements: [Data]) -> Data {
        var data = Data()
        for element in elements {
            let length = UInt32(element.count)
            data.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) })
            data.append(element)
        }
        return data
    }
}
