/// The category of a `TasksError`.
///
/// Mirrors MediaPipe Tasks iOS `TasksErrorCode` (`MPPTasksErrorCode`): the raw values
/// are the absl status codes MediaPipe reports (1-16); the audio-only codes 17-20 are
/// omitted. Each case name ends in `Error`, as in MediaPipe's Swift API.
public enum TasksErrorCode: Int, Sendable, CaseIterable {
    case cancelledError = 1
    case unknownError = 2
    case invalidArgumentError = 3
    case deadlineExceededError = 4
    case notFoundError = 5
    case alreadyExistsError = 6
    case permissionDeniedError = 7
    case resourceExhaustedError = 8
    case failedPreconditionError = 9
    case abortedError = 10
    case outOfRangeError = 11
    case unimplementedError = 12
    case internalError = 13
    case unavailableError = 14
    case dataLossError = 15
    case unauthenticatedError = 16

    /// The absl status code name MediaPipe prefixes to its messages, such as `INVALID_ARGUMENT`.
    public var statusName: String {
        switch self {
        case .cancelledError: "CANCELLED"
        case .unknownError: "UNKNOWN"
        case .invalidArgumentError: "INVALID_ARGUMENT"
        case .deadlineExceededError: "DEADLINE_EXCEEDED"
        case .notFoundError: "NOT_FOUND"
        case .alreadyExistsError: "ALREADY_EXISTS"
        case .permissionDeniedError: "PERMISSION_DENIED"
        case .resourceExhaustedError: "RESOURCE_EXHAUSTED"
        case .failedPreconditionError: "FAILED_PRECONDITION"
        case .abortedError: "ABORTED"
        case .outOfRangeError: "OUT_OF_RANGE"
        case .unimplementedError: "UNIMPLEMENTED"
        case .internalError: "INTERNAL"
        case .unavailableError: "UNAVAILABLE"
        case .dataLossError: "DATA_LOSS"
        case .unauthenticatedError: "UNAUTHENTICATED"
        }
    }
}
