import Foundation

/// Finds a key repeated in one object of a JSON document. `JSONDecoder` keeps one of the values
/// of a repeated key and says nothing, so an index listing a model twice would silently publish
/// one of the two entries.
enum DuplicateKeys {
    /// The first key that appears twice in the object under the top-level key `name`, or nil.
    /// Expects JSON that `JSONDecoder` has read or will read (its errors are reported there).
    static func firstDuplicate(inObject name: String, of json: Data) -> String? {
        var scanner = Scanner(bytes: Array(json))
        return scanner.duplicate(inObject: name)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        /// Walks the document; `stack` holds, per open object or array, whether it is an object
        /// and the last key read in it.
        mutating func duplicate(inObject name: String) -> String? {
            var stack: [(isObject: Bool, key: String?)] = []
            var expectingKey = false
            var target: Int?
            var seen: Set<String> = []
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = byte == UInt8(ascii: "{")
                    if isObject, stack.count == 1, stack[0].key == name { target = stack.count + 1 }
                    stack.append((isObject, nil))
                    expectingKey = isObject
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if target == stack.count { return nil }
                    stack.removeLast()
                    expectingKey = false
                case UInt8(ascii: ","):
                    expectingKey = stack.last?.isObject == true
                case UInt8(ascii: "\""):
                    let text = string()
                    if expectingKey, !stack.isEmpty {
                        stack[stack.count - 1].key = text
                        if target == stack.count, let text, !seen.insert(text).inserted { return text }
                        expectingKey = false
                    }
                    continue
                default:
                    break
                }
                position += 1
            }
            return nil
        }

        /// The string starting at `position` (a quote), decoded; `position` moves past it.
        mutating func string() -> String? {
            let start = position
            position += 1
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            position += 1
            let quoted = Data(bytes[start..<min(position, bytes.count)])
            return (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed)) as? String
        }
    }
}
