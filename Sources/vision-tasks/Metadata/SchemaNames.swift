import TFLiteMetadata

/// The metadata schema's names of its enum values, as its generated code and tflite-support's
/// JSON spell them.
enum SchemaNames {
    static func fileType(_ type: AssociatedFileType) -> String {
        switch type {
        case .unknown: "UNKNOWN"
        case .descriptions: "DESCRIPTIONS"
        case .tensorAxisLabels: "TENSOR_AXIS_LABELS"
        case .tensorValueLabels: "TENSOR_VALUE_LABELS"
        case .tensorAxisScoreCalibration: "TENSOR_AXIS_SCORE_CALIBRATION"
        case .vocabulary: "VOCABULARY"
        case .other(6): "SCANN_INDEX_FILE"
        case .other(let value): "\(value)"
        }
    }

    static func colorSpace(_ space: ImageProperties.ColorSpace) -> String {
        switch space {
        case .unknown: "UNKNOWN"
        case .rgb: "RGB"
        case .grayscale: "GRAYSCALE"
        case .other(let value): "\(value)"
        }
    }

    static func contentProperties(_ type: UInt8) -> String {
        switch type {
        case 0: "NONE"
        case 1: "FeatureProperties"
        case 2: "ImageProperties"
        case 3: "BoundingBoxProperties"
        case 4: "AudioProperties"
        default: "\(type)"
        }
    }
}
