import Foundation

/// Builds the "M001" FlatBuffer of an image classifier's metadata (field ids from `Schema`),
/// laid out as the TFLite Support image classifier writer lays it out: one subgraph, the input
/// with `ImageProperties` (RGB) and `NormalizationOptions`, the output with its label files,
/// score calibration and thresholding.
enum MetadataBuilder {
    /// `min_parser_version`: the newest schema version among the members written, as the
    /// reference computes it (`GetMinimumMetadataParserVersion`). Every member this builder
    /// writes exists since schema 1.0.0 (no vocabulary or ScaNN files, tokenizers, subgraph
    /// process units, tensor groups, audio properties or file versions).
    static let minimumParserVersion = "1.0.0"

    /// What goes into the buffer, already merged with the model's old metadata and checked.
    struct Contents {
        var name: String
        var description: String?
        var version: String?
        var author: String?
        var license: String?
        var inputName: String
        var normalization: ImageClassifierMetadata.Normalization?
        var outputName: String
        var labels: [ImageClassifierMetadata.Labels]
        var scoreCalibration: ImageClassifierMetadata.ScoreCalibration?
        var scoreThreshold: Float?
    }

    /// The metadata FlatBuffer's bytes.
    static func buffer(_ contents: Contents) -> [UInt8] {
        var root: [Int: FlatBufferValue] = [
            Schema.ModelMetadata.name: .string(contents.name),
            Schema.ModelMetadata.subgraphMetadata: .tables([
                .table([
                    Schema.SubGraphMetadata.inputTensorMetadata: .tables([input(contents)]),
                    Schema.SubGraphMetadata.outputTensorMetadata: .tables([output(contents)]),
                ])
            ]),
            Schema.ModelMetadata.minParserVersion: .string(minimumParserVersion),
        ]
        root[Schema.ModelMetadata.description] = contents.description.map(FlatBufferValue.string)
        root[Schema.ModelMetadata.version] = contents.version.map(FlatBufferValue.string)
        root[Schema.ModelMetadata.author] = contents.author.map(FlatBufferValue.string)
        root[Schema.ModelMetadata.license] = contents.license.map(FlatBufferValue.string)
        return FlatBufferValue.buffer(root: .table(root), identifier: ModelMetadata.schemaIdentifier)
    }

    private static func input(_ contents: Contents) -> FlatBufferValue {
        var tensor: [Int: FlatBufferValue] = [
            Schema.TensorMetadata.name: .string(contents.inputName),
            Schema.TensorMetadata.description: .string("Input image to be classified."),
            Schema.TensorMetadata.content: .table([
                Schema.Content.propertiesType: .uint8(Schema.Content.imagePropertiesType),
                Schema.Content.properties: .table([
                    Schema.ImageProperties.colorSpace: .uint8(UInt8(ImageProperties.ColorSpace.rgb.rawValue))
                ]),
            ]),
        ]
        if let normalization = contents.normalization {
            tensor[Schema.TensorMetadata.processUnits] = .tables([
                processUnit(
                    Schema.ProcessUnit.normalizationOptionsType,
                    [
                        Schema.NormalizationOptions.mean: .floats(normalization.mean),
                        Schema.NormalizationOptions.std: .floats(normalization.std),
                    ])
            ])
        }
        return .table(tensor)
    }

    private static func output(_ contents: Contents) -> FlatBufferValue {
        var tensor: [Int: FlatBufferValue] = [
            Schema.TensorMetadata.name: .string(contents.outputName),
            Schema.TensorMetadata.description: .string("Scores of the categories."),
            Schema.TensorMetadata.content: .table([
                Schema.Content.propertiesType: .uint8(Schema.Content.featurePropertiesType),
                Schema.Content.properties: .table([:]),
            ]),
        ]
        var units: [FlatBufferValue] = []
        if let calibration = contents.scoreCalibration {
            units.append(
                processUnit(
                    Schema.ProcessUnit.scoreCalibrationOptionsType,
                    [
                        Schema.ScoreCalibrationOptions.scoreTransformation: .uint8(
                            UInt8(bitPattern: calibration.transformation.rawValue)),
                        Schema.ScoreCalibrationOptions.defaultScore: .float(calibration.defaultScore),
                    ]))
        }
        if let threshold = contents.scoreThreshold {
            units.append(
                processUnit(
                    Schema.ProcessUnit.scoreThresholdingOptionsType,
                    [Schema.ScoreThresholdingOptions.globalScoreThreshold: .float(threshold)]))
        }
        if !units.isEmpty { tensor[Schema.TensorMetadata.processUnits] = .tables(units) }

        var files = contents.labels.map { labels in
            associatedFile(
                labels.fileName, type: .tensorAxisLabels, locale: labels.locale,
                description: labels.locale == nil
                    ? "Names of the categories, one per line." : "Display names of the categories in locale \(labels.locale!).")
        }
        if let calibration = contents.scoreCalibration {
            files.append(
                associatedFile(
                    calibration.fileName, type: .tensorAxisScoreCalibration, locale: nil,
                    description: "Score calibration sigmoids, one line per category: scale,slope,offset[,min_score]."))
        }
        if !files.isEmpty { tensor[Schema.TensorMetadata.associatedFiles] = .tables(files) }
        return .table(tensor)
    }

    private static func processUnit(_ type: UInt8, _ options: [Int: FlatBufferValue]) -> FlatBufferValue {
        .table([Schema.ProcessUnit.optionsType: .uint8(type), Schema.ProcessUnit.options: .table(options)])
    }

    private static func associatedFile(
        _ name: String, type: AssociatedFileType, locale: String?, description: String
    ) -> FlatBufferValue {
        var fields: [Int: FlatBufferValue] = [
            Schema.AssociatedFile.name: .string(name),
            Schema.AssociatedFile.description: .string(description),
            Schema.AssociatedFile.type: .uint8(UInt8(bitPattern: type.rawValue)),
        ]
        fields[Schema.AssociatedFile.locale] = locale.map(FlatBufferValue.string)
        return .table(fields)
    }
}
