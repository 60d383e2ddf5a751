import FileSystem
import Foundation
import TasksCommon

/// The registry a model source publishes as `index.json` at its base URL.
///
/// ```json
/// {
///   "formatVersion": 1,
///   "models": {
///     "flowers": {
///       "file": "flowers.zip",
///       "version": 2,
///       "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
///       "size": 452731,
///       "kind": "automl-zip"
///     }
///   }
/// }
/// ```
///
/// - `file`: the bundle's path relative to the base URL (no `..`, not absolute, no scheme such
///   as `file:` or `http:`, also when percent-encoded).
/// - `version`: a positive integer; publishing a new bundle under the same name increases it.
/// - `sha256`: the bundle file's SHA-256, 64 lowercase hexadecimal digits.
/// - `size`: the bundle file's size in bytes.
/// - `kind`: `"automl-zip"`, a zip of an AutoML Vision Edge export (`manifest.json`, the labels
///   file and the model, at the zip's root), or `"tflite"`, a single `.tflite` model with metadata.
package struct ModelIndex: Sendable, Equatable {
    /// How a published bundle is packed.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        /// A zip of an AutoML export: `manifest.json`, labels file, model.
        case automlZip = "automl-zip"
        /// One `.tflite` file.
        case tflite
    }

    /// One published model.
    package struct Entry: Sendable, Equatable, Codable {
        /// The bundle's path relative to the base URL.
        package var file: String
        /// Positive; a new bundle under the same name has a higher one.
        package var version: Int
        /// The bundle file's SHA-256, 64 lowercase hexadecimal digits.
        package var sha256: String
        /// The bundle file's size in bytes.
        package var size: Int64
        /// How the bundle is packed.
        package var kind: Kind

        package init(file: String, version: Int, sha256: String, size: Int64, kind: Kind) {
            (self.file, self.version, self.sha256, self.size, self.kind) = (file, version, sha256, size, kind)
        }
    }

    /// The format this code reads and writes.
    package static let formatVersion = 1
    /// The file name of the index at a source's base URL.
    package static let fileName = "index.json"
    /// The largest index accepted (an index holds a few lines per model).
    package static let fileKind = FileKind(noun: "model index", maximumByteCount: 8 << 20)

    /// The models by name.
    package var models: [String: Entry]

    package init(models: [String: Entry]) { self.models = models }

    private struct Document: Codable {
        var formatVersion: Int
        var models: [String: Entry]
    }

    /// Parses and checks an index.
    /// - Throws: `TasksError` invalidArgument naming `subject` when the bytes are not the JSON
    ///   above, the format version is unknown, a model is listed twice, or an entry has a bad
    ///   field (named with its value).
    package init(json: Data, subject: TasksError.Subject) throws(TasksError) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: json)
        } catch {
            throw .invalidArgument(
                "the model index is not valid index.json: \(Self.describe(error, json: json))", subject: subject)
        }
        if let name = DuplicateKeys.firstDuplicate(inObject: "models", of: json) {
            throw .invalidArgument("the model index lists the model \"\(name)\" more than once.", subject: subject)
        }
        guard document.formatVersion == Self.formatVersion else {
            throw .invalidArgument(
                "the model index has formatVersion \(document.formatVersion); this version reads \(Self.formatVersion).",
                subject: subject)
        }
        for (name, entry) in document.models {
            try Self.check(entry, name: name, subject: subject)
        }
        models = document.models
    }

    /// The index as `index.json` text, keys sorted.
    package func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers cannot fail.
        return (try? encoder.encode(Document(formatVersion: Self.formatVersion, models: models))) ?? Data()
    }

    private static func check(_ entry: Entry, name: String, subject: TasksError.Subject) throws(TasksError) {
        if let problem = ModelName.problem(name) {
            throw .invalidArgument("the model index names a model \"\(name)\": \(problem)", subject: subject)
        }
        guard entry.version >= 1 else {
            throw .invalidArgument("model \"\(name)\" has version \(entry.version); it must be positive.", subject: subject)
        }
        guard entry.size >= 0 else {
            throw .invalidArgument("model \"\(name)\" has size \(entry.size); it must not be negative.", subject: subject)
        }
        guard entry.sha256.count == 64, entry.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
            throw .invalidArgument(
                "model \"\(name)\" has sha256 \"\(entry.sha256)\"; it must be 64 lowercase hexadecimal digits.",
                subject: subject)
        }
        // Percent-decoded as a server decodes it; a scheme ("file:", "http:") would leave the source.
        let decoded = entry.file.removingPercentEncoding ?? entry.file
        let parts = decoded.split(separator: "/", omittingEmptySubsequences: false)
        guard !entry.file.isEmpty, !decoded.hasPrefix("/"), !parts.contains(".."), !parts.contains(""),
            URL(string: entry.file)?.scheme == nil
        else {
            throw .invalidArgument(
                "model \"\(name)\" has file \"\(entry.file)\"; it must be a relative path without '..' or a scheme.",
                subject: subject)
        }
    }

    private static func describe(_ error: any Error, json: Data) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            // Foundation reports a number that does not fit the field (1e30, 2.5) as invalid JSON.
            (try? JSONSerialization.jsonObject(with: json)) == nil
                ? "not JSON (\(context.debugDescription))"
                : "a number does not fit its field (\"version\" and \"size\" are integers up to 2^63 - 1)"
        case DecodingError.keyNotFound(let key, let context): "missing \"\(key.stringValue)\" at \(path(context))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.debugDescription) at \(path(context))"
        default: "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        let keys = context.codingPath.map(\.stringValue)
        return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
    }
}

/// The rule for model names: they name folders in the cache.
package enum ModelName {
    /// Why `name` cannot name a model, or nil when it can: 1 to 128 characters of
    /// `A-Z a-z 0-9 . _ -`, not starting with a dot.
    package static func problem(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= 128 else { return "a model name has 1 to 128 characters." }
        guard
            name.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            }),
            !name.hasPrefix(".")
        else { return "a model name uses only letters, digits, '.', '_' and '-', and does not start with '.'." }
        return nil
    }
}
