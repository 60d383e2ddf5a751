/// The transformation `g(x)` applied to an uncalibrated score before the calibration
/// sigmoid, `tflite::ScoreTransformationType`.
public enum ScoreTransformation: Int8, Equatable, Sendable, CaseIterable {
    /// `IDENTITY` (0): `g(x) = x`.
    case identity = 0
    /// `LOG` (1): `g(x) = log(x)`.
    case log = 1
    /// `INVERSE_LOGISTIC` (2): `g(x) = log(x) - log(1 - x)`.
    case inverseLogistic = 2
}

extension ScoreTransformation {
    /// The schema's name of the value: "IDENTITY", "LOG" or "INVERSE_LOGISTIC".
    package var schemaName: String {
        switch self {
        case .identity: "IDENTITY"
        case .log: "LOG"
        case .inverseLogistic: "INVERSE_LOGISTIC"
        }
    }
}
