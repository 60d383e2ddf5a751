import Foundation
import TasksCommon

/// The TFLite Support metadata of a model: the "M001" FlatBuffer stored in the model's
/// `TFLITE_METADATA` buffer.
///
/// Mirrors what MediaPipe's `ModelMetadataExtractor` (`tasks/cc/metadata/metadata_extractor.cc`)
/// reads: the schema identifier and `min_parser_version` are checked, then the fields the
/// image classifier uses are decoded. Fields not listed here are ignored.
package struct ModelMetadata: Equatable, Sendable {
    /// The FlatBuffers file identifier of the metadata schema.
    package static let schemaIdentifier = "M001"
    /// The newest metadata schema version this reader understands, as MediaPipe's
    /// `kMetadataParserVersion`; a larger `min_parser_version` is refused.
    package static let parserVersion = "1.5.0"

    /// `ModelMetadata.name`, such as "ImageClassifier"; nil when absent.
    package var name: String?
    /// `ModelMetadata.description`; nil when absent.
    package var description: String?
    /// `ModelMetadata.version`, the model version its authors set; nil when absent.
    package var version: String?
    /// `ModelMetadata.author`; nil when absent.
    package var author: String?
    /// `ModelMetadata.license`; nil when absent.
    package var license: String?
    /// `ModelMetadata.min_parser_version`, such as "1.0.0"; nil when absent.
    package var minParserVersion: String?
    /// `ModelMetadata.subgraph_metadata`; index 0 describes the main subgraph. Empty when absent.
    package var subgraphs: [SubGraphMetadata]
    /// Whether `subgraph_metadata` is present but has no entry (which MediaPipe reads as if it
    /// had one: see `MediaPipeModelRules`), as opposed to absent.
    package var hasEmptySubgraphList = false

    /// Creates metadata from its parts (for tests and callers that build metadata by hand).
    package init(
        name: String? = nil, description: String? = nil, version: String? = nil, author: String? = nil,
        license: String? = nil, minParserVersion: String? = nil, subgraphs: [SubGraphMetadata] = []
    ) {
        self.name = name
        self.description = description
        self.version = version
        self.author = author
        self.license = license
        self.minParserVersion = minParserVersion
        self.subgraphs = subgraphs
    }

    /// Parses a metadata FlatBuffer (the bytes of the model's `TFLITE_METADATA` buffer).
    ///
    /// - Parameter bytes: the "M001" FlatBuffer.
    /// - Throws: `TasksError` with code `invalidArgumentError`:
    ///   - "Invalid metadata schema version: expected M001, got X" when bytes 4..<8 are not "M001";
    ///   - "Metadata schema version 1.5.0 is smaller than the minimum version X to parse the
    ///     metadata flatbuffer." when `min_parser_version` is newer than `parserVersion`
    ///     (both MediaPipe's texts), or "Invalid min_parser_version ..." when it is not a
    ///     dotted version;
    ///   - "Found multiple ProcessUnits with type=T, expected at most one." (MediaPipe's text)
    ///     when a tensor has two normalization, score calibration or score thresholding units;
    ///   - "The model metadata is not a valid FlatBuffer buffer: <field>: <why>" when an offset
    ///     or length points outside the buffer, or a required union value is missing.
    package init(bytes: Data) throws(TasksError) {
        // Real metadata has tens of tables; the limit bounds the work and memory a buffer
        // that shares one table from many places can cause.
        let buffer = FlatBuffer(bytes, maximumTableCount: 100_000)
        let identifier = buffer.fileIdentifierBytes
        guard identifier == Array(Self.schemaIdentifier.utf8) else {
            let shortBuffer = identifier.count < 4 ? " (the metadata buffer has only \(bytes.count) bytes)" : ""
            throw .invalidArgument(
                "Invalid metadata schema version: expected \(Self.schemaIdentifier), got \(Self.printable(identifier))\(shortBuffer)"
            )
        }
        self = try decodingFlatBuffer(
            invalid: "The model metadata is not a valid FlatBuffer buffer", subject: "the model metadata"
        ) {
            let root = try buffer.rootTable("ModelMetadata")
            let minParserVersion = try root.string(Schema.ModelMetadata.minParserVersion, "min_parser_version")
            if let minParserVersion {
                try Self.checkParserVersion(minParserVersion)
            }
            var metadata = ModelMetadata(
                name: try root.string(Schema.ModelMetadata.name, "name"),
                description: try root.string(Schema.ModelMetadata.description, "description"),
                version: try root.string(Schema.ModelMetadata.version, "version"),
                author: try root.string(Schema.ModelMetadata.author, "author"),
                license: try root.string(Schema.ModelMetadata.license, "license"),
                minParserVersion: minParserVersion,
                subgraphs: try root.tables(Schema.ModelMetadata.subgraphMetadata, "subgraph_metadata").map(
                    SubGraphMetadata.init(table:)))
            metadata.hasEmptySubgraphList =
                try root.vector(Schema.ModelMetadata.subgraphMetadata, "subgraph_metadata", elementSize: 4)?.count == 0
            return metadata
        }
    }

    /// Throws unless `minParserVersion` is at most `parserVersion`, compared as MediaPipe's
    /// `CompareVersions`: dot-separated integers, missing components count as 0.
    static func checkParserVersion(_ minParserVersion: String) throws(TasksError) {
        guard let order = DottedVersion.compare(minParserVersion, parserVersion) else {
            throw .invalidArgument(
                "Invalid min_parser_version '\(minParserVersion)' in the model metadata: expected dot-separated integers such as \(parserVersion)."
            )
        }
        if order > 0 {
            throw .invalidArgument(
                "Metadata schema version \(parserVersion) is smaller than the minimum version \(minParserVersion) to parse the metadata flatbuffer."
            )
        }
    }

    /// Renders identifier bytes for a message: printable ASCII as is, other bytes as `\xNN`.
    static func printable(_ bytes: [UInt8]) -> String {
        bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
    }
}
