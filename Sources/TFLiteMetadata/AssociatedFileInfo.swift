/// One entry of a tensor's `associated_files`: a file in the model's zip and what it holds.
///
/// Mirrors `tflite::AssociatedFile` (metadata schema); `version` is ignored.
/// Read the file's bytes with `AssociatedFiles.contents(of: info.name)`.
package struct AssociatedFileInfo: Equatable, Sendable {
    /// `name`: the file's name in the model's zip, such as "labels.txt".
    package var name: String
    /// `description`; nil when absent.
    package var description: String?
    /// `type`; `.unknown` when absent.
    package var type: AssociatedFileType
    /// `locale`, such as "en" (compared exactly, no fallback); nil when absent.
    package var locale: String?

    /// Creates an associated file entry.
    package init(name: String, description: String? = nil, type: AssociatedFileType, locale: String? = nil) {
        self.name = name
        self.description = description
        self.type = type
        self.locale = locale
    }

    /// Decodes an `AssociatedFile` table; nil when it has no name.
    init?(table: FlatBufferTable) throws(FlatBufferError) {
        guard let name = try table.string(Schema.AssociatedFile.name, "name") else { return nil }
        self.name = name
        description = try table.string(Schema.AssociatedFile.description, "description")
        type = AssociatedFileType(rawValue: Int8(bitPattern: try table.uint8(Schema.AssociatedFile.type, "type")))
        locale = try table.string(Schema.AssociatedFile.locale, "locale")
    }
}
