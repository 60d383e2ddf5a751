import Foundation
import TasksCommon

/// Encodes the tool's JSON records: keys sorted, slashes unescaped, one line.
package enum JSONText {
    /// `value` as one line of JSON.
    /// - Throws: `TasksError` internal when `value` cannot be encoded (a non-finite number:
    ///   JSON has none; the commands check scores before, so this is a bug if it happens).
    package static func encode(_ value: some Encodable) throws(TasksError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .internal("The result could not be written as JSON: \(error).")
        }
    }
}
