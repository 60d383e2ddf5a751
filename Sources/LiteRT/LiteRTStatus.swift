import CLiteRt
import TasksCommon

/// Turns a LiteRT C status into a `TasksError`; the one place where LiteRT codes are mapped.
///
/// `LiteRtGetStatusString` is not exported by libLiteRt.so, so the names are ours.
/// - Parameters:
///   - status: the value a `LiteRt*` function returned (0 is success).
///   - operation: what was attempted, for the message ("LiteRtCreateModelFromBuffer").
/// - Throws: `TasksError` whose code follows the status: invalidArgument for an invalid argument
///   (1) and an invalid flatbuffer (501), resourceExhausted (2), unimplemented (5), notFound (6),
///   outOfRange (1000), internal otherwise.
@inline(__always)
func check(_ status: LiteRtStatus, _ operation: @autoclosure () -> String) throws(TasksError) {
    guard status != 0 else { return }
    throw liteRTError(status, operation())
}

/// The `TasksError` for a failed LiteRT call.
func liteRTError(_ status: LiteRtStatus, _ operation: String) -> TasksError {
    let (code, name): (TasksErrorCode, String) =
        switch status {
        case 1: (.invalidArgumentError, "invalid argument")
        case 2: (.resourceExhaustedError, "memory allocation failure")
        case 3: (.internalError, "runtime failure")
        case 5: (.unimplementedError, "unsupported")
        case 6: (.notFoundError, "not found")
        case 500: (.internalError, "file I/O error")
        case 501: (.invalidArgumentError, "invalid flatbuffer")
        case 504: (.internalError, "compilation failed")
        case 1000: (.outOfRangeError, "index out of bounds")
        default: (.internalError, "error")
        }
    return TasksError(code, "\(operation) failed: \(name) (LiteRT status \(status))")
}
