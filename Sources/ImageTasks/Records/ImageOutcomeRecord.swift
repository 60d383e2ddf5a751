import TasksCommon

/// One image's record, as `classify`, `label` and `embed` print it and the server returns it:
/// `{"image", "classifications"}`, `{"image", "labels"}`, `{"image", "embeddings"}` (the member
/// is the output's `recordKey`) or `{"image", "error"}`.
package struct ImageOutcomeRecord<Output: TaskOutput>: Codable, Equatable, Sendable {
    /// The path as given or found (`FileSystemPath.description`: bytes that are not UTF-8 as `\xNN`).
    package let image: String
    /// The output, when the image succeeded.
    package var output: Output.Record?
    /// The error, when it failed.
    package var error: ErrorRecord?

    package init(image: String, output: Output.Record? = nil, error: ErrorRecord? = nil) {
        self.image = image
        self.output = output
        self.error = error
    }

    /// The record's members: two fixed ones and the output's, named by the task.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static var image: Key { Key(stringValue: "image") }
        static var error: Key { Key(stringValue: "error") }
        static var output: Key { Key(stringValue: Output.recordKey) }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        image = try container.decode(String.self, forKey: .image)
        output = try container.decodeIfPresent(Output.Record.self, forKey: .output)
        error = try container.decodeIfPresent(ErrorRecord.self, forKey: .error)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(image, forKey: .image)
        try container.encodeIfPresent(output, forKey: .output)
        try container.encodeIfPresent(error, forKey: .error)
    }
}
