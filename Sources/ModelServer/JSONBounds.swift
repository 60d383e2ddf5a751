import Foundation

/// Bounds on an inference request's JSON structure, checked on its bytes before it is decoded.
/// The body limit bounds the bytes, not what decoding them costs: each value outside the images
/// becomes a tree node (32 MB of `0,` in an unknown member took 1.3 GB and 22 s), and each
/// level of nesting makes the decoder pay again for every value below it (a few KiB nested 400
/// deep took seconds). A valid request nests 5 levels deep (request, `inputs`, input,
/// `parameters`, a list) and has few values besides its images.
enum JSONBounds {
    /// Levels of arrays and objects at most.
    static let maxDepth = 32
    /// Values at most besides `--max-images`.
    static let baseValues = 10_000

    /// Checks `json`'s nesting, its number of values (arrays, objects and the elements that
    /// follow a comma, outside strings) and that no object has a member twice, without decoding
    /// it. Malformed JSON passes: the decoder reports it.
    /// - Throws: `HTTPError` 400 naming the bound passed or the duplicated member.
    static func check(_ json: Data, maxImages: Int) throws(HTTPError) {
        var scan = Scan(maxValues: baseValues + maxImages)
        json.withUnsafeBytes { scan.run($0) }
        if let offset = scan.tooDeepAt {
            throw .badRequest(
                "The request's JSON nests deeper than \(maxDepth) levels (at byte offset \(offset)); "
                    + "an inference request needs 5.")
        }
        if scan.values > scan.maxValues {
            throw .badRequest(
                "The request's JSON has more than \(scan.maxValues) values (arrays, objects and their elements); "
                    + "the limit is \(baseValues) plus --max-images.")
        }
        if let name = scan.duplicate {
            // JSONDecoder takes the first, JSONSerialization, Python and JavaScript the last: a
            // proxy that checks requests would see other parameters than the server uses.
            throw .badRequest(
                "The request's JSON has the member '\(name)' twice in one object (JSON parsers differ on which one counts).")
        }
    }

    /// One pass over the bytes; stops at the first bound passed.
    private struct Scan {
        let maxValues: Int
        var values = 0
        var tooDeepAt: Int?
        var duplicate: String?
        /// The arrays (nil) and objects (their member names so far) open at this point.
        var open: [Set<String>?] = []

        mutating func run(_ bytes: UnsafeRawBufferPointer) {
            var index = 0
            while index < bytes.count, values <= maxValues, tooDeepAt == nil, duplicate == nil {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    let end = JSONBounds.endOfString(bytes, openingAt: index)
                    if case .some(.some) = open.last, JSONBounds.nextSignificant(bytes, after: end) == UInt8(ascii: ":") {
                        member(String(bytes, from: index, through: end))
                    }
                    index = end
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    open.append(bytes[index] == UInt8(ascii: "{") ? [] : nil)
                    values += 1
                    if open.count > maxDepth { tooDeepAt = index }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): _ = open.popLast()
                case UInt8(ascii: ","): values += 1
                default: break
                }
                index += 1
            }
        }

        private mutating func member(_ name: String?) {
            guard let name, !(open[open.count - 1]?.insert(name).inserted ?? true) else { return }
            duplicate = name
        }
    }

    /// The byte after `index` that is not JSON whitespace, if any.
    fileprivate static func nextSignificant(_ bytes: UnsafeRawBufferPointer, after index: Int) -> UInt8? {
        bytes[min(index + 1, bytes.count)...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }

    /// The index of the quote that closes the string opened at `start` (the end when none
    /// does). Found with `memchr`: base64 images are most of a request, and hold no quote.
    fileprivate static func endOfString(_ bytes: UnsafeRawBufferPointer, openingAt start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        var from = start + 1
        while from < bytes.count, let hit = memchr(base + from, Int32(UInt8(ascii: "\"")), bytes.count - from) {
            let position = base.distance(to: UnsafeRawPointer(hit))
            var backslashes = 0
            while position - backslashes - 1 > start, bytes[position - backslashes - 1] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return position }
            from = position + 1
        }
        return bytes.count
    }
}

extension String {
    /// The JSON string literal from the quote at `start` to the one at `end`, unescaped (nil
    /// when it is not a valid one; the decoder reports it).
    fileprivate init?(_ bytes: UnsafeRawBufferPointer, from start: Int, through end: Int) {
        guard end < bytes.count else { return nil }
        let literal = UnsafeRawBufferPointer(rebasing: bytes[start...end])
        guard literal.contains(UInt8(ascii: "\\")) else {
            self.init(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
            return
        }
        guard let text = try? JSONSerialization.jsonObject(with: Data(literal), options: .fragmentsAllowed) as? String
        else { return nil }
        self = text
    }
}
