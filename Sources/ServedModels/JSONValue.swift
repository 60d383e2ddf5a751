import Foundation
import ImageTasks

/// Typed reads of `JSONSerialization` values. Its `true` and `false` are NSNumbers that
/// `as? Int` and `as? Double` turn into 1 and 0, and its numbers `as? Bool` into booleans;
/// here a JSON boolean is never a number, nor a number a boolean.
package enum JSONValue {
    /// An integral JSON number, or nil (a boolean, a fraction, out of `Int`'s range, not a number).
    package static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return value as? Int
    }

    /// A JSON number, or nil.
    package static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }

    /// A JSON boolean, or nil.
    package static func boolean(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber, isBoolean(number) else { return nil }
        return number.boolValue
    }

    /// A value as the client wrote it, for error messages: a string as is, anything else as
    /// JSON (`true`, not `1`).
    package static func text(_ value: Any?) -> String {
        guard let value else { return "none" }
        if let string = value as? String { return string }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) else {
            return "\(value)"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether the number came from `true` or `false` (its Objective-C type is `char`).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
