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

    /// Checks `json`'s nesting and its number of values (arrays, objects and the elements that
    /// follow a comma, outside strings), without decoding it. Malformed JSON passes: the
    /// decoder reports it.
    /// - Throws: `HTTPError` 400 naming the bound passed.
    static func check(_ json: Data, maxImages: Int) throws(HTTPError) {
        let maxValues = baseValues + maxImages
        let quote = UInt8(ascii: "\"")
        var found: (depthAt: Int?, values: Int) = (nil, 0)
        json.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var depth = 0
            var index = 0
            while index < bytes.count, found.values <= maxValues {
                switch bytes[index] {
                case quote: index = endOfString(bytes, openingAt: index)
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    found.values += 1
                    if depth > maxDepth {
                        found.depthAt = index
                        return
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                case UInt8(ascii: ","): found.values += 1
                default: break
                }
                index += 1
            }
        }
        if let offset = found.depthAt {
            throw .badRequest(
                "The request's JSON nests deeper than \(maxDepth) levels (at byte offset \(offset)); "
                    + "an inference request needs 5.")
        }
        if found.values > maxValues {
            throw .badRequest(
                "The request's JSON has more than \(maxValues) values (arrays, objects and their elements); "
                    + "the limit is \(baseValues) plus --max-images.")
        }
    }

    /// The index of the quote that closes the string opened at `start` (the end when none
    /// does). Found with `memchr`: base64 images are most of a request, and hold no quote.
    private static func endOfString(_ bytes: UnsafeRawBufferPointer, openingAt start: Int) -> Int {
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
