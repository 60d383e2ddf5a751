import TasksCommon

/// The metadata of one input or output tensor: its name, content properties, process
/// units and associated files.
///
/// Mirrors `tflite::TensorMetadata` (metadata schema) as MediaPipe reads it: the process
/// units are looked up by type, at most one of each (`FindFirstProcessUnit`), and the
/// associated files keep their order (the first labels file gives category names).
/// Duplicate units are refused on every tensor when the metadata is parsed, where MediaPipe
/// checks only the units it looks up (normalization on the input, calibration and
/// thresholding on the outputs); tokenizer and unknown units are ignored.
package struct TensorMetadata: Equatable, Sendable {
    /// `name`: for an output, the classification head name (such as "probability"); nil when absent.
    package var name: String?
    /// `description`; nil when absent.
    package var description: String?
    /// `content.content_properties_type`: 0 NONE (also when there is no content), 1
    /// FeatureProperties, 2 ImageProperties, 3 BoundingBoxProperties, 4 AudioProperties.
    package var contentPropertiesType: UInt8
    /// `content.content_properties` when it is `ImageProperties`; nil otherwise.
    package var imageProperties: ImageProperties?
    /// The `NormalizationOptions` process unit, if any.
    package var normalization: NormalizationOptions?
    /// The `ScoreCalibrationOptions` process unit, if any.
    package var scoreCalibration: ScoreCalibrationOptions?
    /// The `ScoreThresholdingOptions` process unit, if any.
    package var scoreThresholding: ScoreThresholdingOptions?
    /// `associated_files`, in order. Entries without a name are skipped (MediaPipe never
    /// matches them).
    package var associatedFiles: [AssociatedFileInfo]

    /// Creates tensor metadata from its parts.
    package init(
        name: String? = nil,
        description: String? = nil,
        contentPropertiesType: UInt8? = nil,
        imageProperties: ImageProperties? = nil,
        normalization: NormalizationOptions? = nil,
        scoreCalibration: ScoreCalibrationOptions? = nil,
        scoreThresholding: ScoreThresholdingOptions? = nil,
        associatedFiles: [AssociatedFileInfo] = []
    ) {
        self.name = name
        self.description = description
        self.contentPropertiesType = contentPropertiesType ?? (imageProperties == nil ? 0 : Schema.Content.imagePropertiesType)
        self.imageProperties = imageProperties
        self.normalization = normalization
        self.scoreCalibration = scoreCalibration
        self.scoreThresholding = scoreThresholding
        self.associatedFiles = associatedFiles
    }

    /// The associated files of `type`, in metadata order.
    ///
    /// - Parameters:
    ///   - type: the file type, such as `.tensorAxisLabels`.
    ///   - locale: when non-nil, only files whose `locale` equals it exactly (no fallback;
    ///     `""` matches any file, as MediaPipe's `FindFirstAssociatedFileName`).
    /// - Returns: the matching files; the first is the one MediaPipe uses.
    package func associatedFiles(ofType type: AssociatedFileType, locale: String? = nil) -> [AssociatedFileInfo] {
        associatedFiles.filter { file in
            guard file.type == type else { return false }
            guard let locale, !locale.isEmpty else { return true }
            return file.locale == locale
        }
    }

    /// Decodes a `TensorMetadata` table.
    ///
    /// - Throws: `FlatBufferError` for bad offsets; `TasksError` (invalidArgument) for two
    ///   process units of one decoded type, or a decoded process unit without its options.
    init(table: FlatBufferTable) throws {
        name = try table.string(Schema.TensorMetadata.name, "name")
        description = try table.string(Schema.TensorMetadata.description, "description")
        imageProperties = nil
        let content = try table.table(Schema.TensorMetadata.content, "content")
        contentPropertiesType = try content?.uint8(Schema.Content.propertiesType, "content_properties_type") ?? 0
        if let content, contentPropertiesType == Schema.Content.imagePropertiesType {
            guard let properties = try content.table(Schema.Content.properties, "content_properties") else {
                throw FlatBufferError(
                    path: content.path, reason: "content_properties_type is ImageProperties but content_properties is missing")
            }
            imageProperties = try ImageProperties(table: properties)
        }

        normalization = nil
        scoreCalibration = nil
        scoreThresholding = nil
        for unit in try table.tables(Schema.TensorMetadata.processUnits, "process_units") {
            let type = try unit.uint8(Schema.ProcessUnit.optionsType, "options_type")
            switch type {
            case Schema.ProcessUnit.normalizationOptionsType:
                try Self.checkUnique(normalization == nil, type)
                normalization = try NormalizationOptions(table: Self.options(of: unit, type))
            case Schema.ProcessUnit.scoreCalibrationOptionsType:
                try Self.checkUnique(scoreCalibration == nil, type)
                scoreCalibration = try ScoreCalibrationOptions(table: Self.options(of: unit, type))
            case Schema.ProcessUnit.scoreThresholdingOptionsType:
                try Self.checkUnique(scoreThresholding == nil, type)
                scoreThresholding = try ScoreThresholdingOptions(table: Self.options(of: unit, type))
            default:
                continue  // Tokenizer options and unknown units: not used for images.
            }
        }

        associatedFiles = try table.tables(Schema.TensorMetadata.associatedFiles, "associated_files").compactMap(
            AssociatedFileInfo.init(table:))
    }

    /// Throws MediaPipe's error for a second process unit of one type.
    private static func checkUnique(_ isFirst: Bool, _ type: UInt8) throws(TasksError) {
        if !isFirst {
            throw .invalidArgument(
                "Found multiple ProcessUnits with type=\(Schema.ProcessUnit.optionsTypeName(type)), expected at most one.")
        }
    }

    /// The options table of a process unit whose type was decoded.
    private static func options(of unit: FlatBufferTable, _ type: UInt8) throws -> FlatBufferTable {
        guard let options = try unit.table(Schema.ProcessUnit.options, "options") else {
            throw FlatBufferError(
                path: unit.path, reason: "options_type is \(Schema.ProcessUnit.optionsTypeName(type)) but options is missing")
        }
        return options
    }
}
