import Foundation
import ImageTasks
import ServedModels

/// An inference request's JSON as read by `JSONDecoder`, which decodes each base64 image of an
/// input's `"data"` from the body's bytes straight into `Data`: a request costs its body and its
/// images, not a tree of strings as large as the body on top (`JSONSerialization` made one, and
/// a 30 MiB request took 96 MB). Every other member becomes the value `JSONSerialization` would
/// have given (`NSNumber`, `String`, arrays, dictionaries), so that reading it keeps
/// `JSONValue`'s rules (a boolean is never a number).
struct InferenceRequestWire: Decodable {
    /// The members but `"inputs"` (and `"inputs"` itself when it is not an array of objects).
    var members: [String: Any] = [:]
    /// `"inputs"`, when it is an array of objects.
    var inputs: [Input]?

    /// One input: its members but `"data"`, and the data's images.
    struct Input: Decodable {
        var members: [String: Any] = [:]
        var elements = Elements.missing

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: MemberKey.self)
            for key in container.allKeys where key.stringValue != "data" {
                members[key.stringValue] = try container.decode(JSONNode.self, forKey: key).foundationValue
            }
            guard container.contains(MemberKey("data")) else { return }
            let limit = decoder.userInfo[InferenceRequestWire.maxImagesKey] as? Int ?? 0
            let declared = InferenceRequestWire.declaredCount(members["shape"])
            elements = Elements.read(from: container, declared: declared, limit: limit)
        }
    }

    /// What an input's `"data"` holds.
    enum Elements {
        /// No `"data"`, or not an array.
        case missing
        /// An array of `count` elements, not decoded: the shape declares another count, or more
        /// than the limit.
        case counted(Int)
        /// Every element, decoded.
        case decoded([Data])
        /// The element at `index` is not a base64 string.
        case invalid(index: Int)

        static func read(from container: KeyedDecodingContainer<MemberKey>, declared: Int?, limit: Int) -> Elements {
            guard var list = try? container.nestedUnkeyedContainer(forKey: MemberKey("data")) else { return .missing }
            let count = list.count ?? 0
            guard let declared, declared == count, count <= limit else { return .counted(count) }
            var images: [Data] = []
            images.reserveCapacity(count)
            while !list.isAtEnd {
                guard let image = try? list.decode(Data.self) else { return .invalid(index: images.count) }
                images.append(image)
            }
            return .decoded(images)
        }
    }

    /// Decodes a request; `maxImages` bounds the images decoded from one input.
    /// - Throws: `DecodingError` when the JSON is malformed or not an object.
    static func decode(_ json: Data, maxImages: Int) throws -> InferenceRequestWire {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.userInfo[maxImagesKey] = maxImages
        return try decoder.decode(InferenceRequestWire.self, from: json)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        for key in container.allKeys {
            if key.stringValue == "inputs", let inputs = try? container.decode([Input].self, forKey: key) {
                self.inputs = inputs
            } else {
                members[key.stringValue] = try container.decode(JSONNode.self, forKey: key).foundationValue
            }
        }
    }

    /// What is wrong with JSON that `decode` refused, for a 400. `JSONDecoder` reads a number
    /// or string only when it is decoded, and says no more than "not valid JSON" or that an
    /// object was expected: `JSONSerialization` says what and where (a number beyond `Double`,
    /// a lone surrogate, bytes that are not UTF-8, a character offset), the decoder's coding
    /// path which member.
    static func problem(_ json: Data, _ error: any Error) -> String {
        let reason: String
        do {
            guard try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed) is [String: Any] else {
                return "The request body is not a JSON object."
            }
            reason = context(of: error)?.debugDescription ?? "\(error)"
        } catch {
            reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        }
        let path = path(context(of: error)?.codingPath ?? [])
        return "The request body is not valid JSON\(path.isEmpty ? "" : " at \(path)"): \(reason)"
    }

    private static func context(of error: any Error) -> DecodingError.Context? {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context
        default: nil
        }
    }

    /// A coding path as `inputs[0].shape[0]`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    /// B of a shape `[B]`, when it is one integer.
    static func declaredCount(_ shape: Any?) -> Int? {
        guard let shape = shape as? [Any], shape.count == 1 else { return nil }
        return JSONValue.integer(shape[0])
    }

    static let maxImagesKey = CodingUserInfoKey(rawValue: "maxImages")!

    /// A JSON object's member name.
    struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { nil }
    }
}

/// Any JSON value, decoded for conversion to what `JSONSerialization` gives.
private enum JSONNode: Decodable {
    case null
    case boolean(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    init(from decoder: any Decoder) throws {
        if let value = try? decoder.singleValueContainer() {
            if value.decodeNil() {
                self = .null
                return
            }
            if let boolean = try? value.decode(Bool.self) {
                self = .boolean(boolean)
                return
            }
            if let integer = try? value.decode(Int.self) {
                self = .integer(integer)
                return
            }
            if let number = try? value.decode(Double.self) {
                self = .number(number)
                return
            }
            if let string = try? value.decode(String.self) {
                self = .string(string)
                return
            }
        }
        if var list = try? decoder.unkeyedContainer() {
            var elements: [JSONNode] = []
            while !list.isAtEnd { elements.append(try list.decode(JSONNode.self)) }
            self = .array(elements)
            return
        }
        let object = try decoder.container(keyedBy: InferenceRequestWire.MemberKey.self)
        var members: [String: JSONNode] = [:]
        for key in object.allKeys { members[key.stringValue] = try object.decode(JSONNode.self, forKey: key) }
        self = .object(members)
    }

    /// The value as `JSONSerialization` gives it: booleans and numbers as `NSNumber` (a
    /// boolean's of type `char`), `NSNull`, `String`, `[Any]`, `[String: Any]`.
    var foundationValue: Any {
        switch self {
        case .null: NSNull()
        case .boolean(let value): NSNumber(value: value)
        case .integer(let value): NSNumber(value: value)
        case .number(let value): NSNumber(value: value)
        case .string(let value): value
        case .array(let values): values.map(\.foundationValue)
        case .object(let members): members.mapValues(\.foundationValue)
        }
    }
}
