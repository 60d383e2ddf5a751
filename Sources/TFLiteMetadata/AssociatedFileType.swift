/// What an associated file holds, `tflite::AssociatedFileType` (metadata schema).
package enum AssociatedFileType: Equatable, Hashable, Sendable {
    /// `UNKNOWN` (0), also the value when the field is absent.
    case unknown
    /// `DESCRIPTIONS` (1): a readme or similar.
    case descriptions
    /// `TENSOR_AXIS_LABELS` (2): one label per line for an axis of the tensor (class names).
    case tensorAxisLabels
    /// `TENSOR_VALUE_LABELS` (3): labels that tensor values index.
    case tensorValueLabels
    /// `TENSOR_AXIS_SCORE_CALIBRATION` (4): one sigmoid per line (`ScoreCalibrationFile`).
    case tensorAxisScoreCalibration
    /// `VOCABULARY` (5): a tokenizer vocabulary.
    case vocabulary
    /// Any other value (such as 6, `SCANN_INDEX_FILE`), kept as stored.
    case other(Int8)

    /// Maps the stored schema value.
    package init(rawValue: Int8) {
        switch rawValue {
        case 0: self = .unknown
        case 1: self = .descriptions
        case 2: self = .tensorAxisLabels
        case 3: self = .tensorValueLabels
        case 4: self = .tensorAxisScoreCalibration
        case 5: self = .vocabulary
        default: self = .other(rawValue)
        }
    }

    /// The stored schema value.
    package var rawValue: Int8 {
        switch self {
        case .unknown: 0
        case .descriptions: 1
        case .tensorAxisLabels: 2
        case .tensorValueLabels: 3
        case .tensorAxisScoreCalibration: 4
        case .vocabulary: 5
        case .other(let value): value
        }
    }
}
