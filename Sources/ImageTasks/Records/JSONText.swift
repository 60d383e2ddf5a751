import Foundation
import TasksCommon

/// Encodes the tool's JSON: keys sorted, slashes unescaped, one line. The one encoder of the
/// command line's records and of every answer of the server.
package enum JSONText {
    /// `value` as one line of JSON.
    /// - Throws: `TasksError` internal when `value` cannot be encoded (a non-finite number:
    ///   JSON has none; the commands check scores before, so this is a bug if it happens).
    package static func encode(_ value: some Encodable) throws(TasksError) -> String {
        String(decoding: try data(value), as: UTF8.self)
    }

    /// `value` as the UTF-8 bytes of one line of JSON.
    /// - Throws: as `encode(_:)`.
    package static func data(_ value: some Encodable) throws(TasksError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        do {
            return try encoder.encode(value)
        } catch {
            throw .internal("The result could not be written as JSON: \(error).")
        }
    }
}
