import CFFmpeg
import Glibc
import TasksCommon

/// Turns FFmpeg error codes into `TasksError`s: the one place that maps `AVERROR` values to
/// codes and renders their reasons (with `av_strerror`).
enum FFmpegError {
    /// FFmpeg's description of an error code (`av_strerror`), such as "Invalid data found
    /// when processing input"; "error <code>" when FFmpeg has none.
    static func description(of code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE) * 2)
        guard av_strerror(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The `TasksError` for an FFmpeg call that returned `code` (< 0), with `source` as its
    /// subject (`TasksError.Subject.videoSource`).
    ///
    /// The reason has the form "<failure>: <reason> (<av_strerror text>; AVERROR <code>[;
    /// FFmpeg: <last log line>])", so the message reads "<source>: <failure>: <reason> (...)".
    ///
    /// - Parameters:
    ///   - code: The negative `AVERROR` value.
    ///   - operation: The step that failed.
    ///   - source: The URL or path as the caller gave it.
    ///   - deadline: The budget of the call; when it expired, the error is
    ///     `deadlineExceededError` whatever the code (FFmpeg reports an interrupt as
    ///     `AVERROR_EXIT`, or as an I/O error from some protocols); so is `AVERROR_EXIT` from
    ///     an input interrupted by an earlier budget.
    ///   - log: A mark taken before the call; what FFmpeg logged since is appended.
    static func error(
        _ code: Int32, _ operation: FFmpegOperation, source: String,
        deadline: InterruptDeadline, log: FFmpegLogMark
    ) -> TasksError {
        let timedOut = deadline.hasExpired || (code == SVT_AVERROR_EXIT && deadline.hasEverExpired)
        let (errorCode, reason) =
            if code == SVT_AVERROR_EXIT && svt_blocking_reads_cancelled() != 0 {
                (TasksErrorCode.cancelledError, "reading was cancelled")
            } else if timedOut {
                (TasksErrorCode.deadlineExceededError, "no data within the timeout of \(deadline.timeoutInMilliseconds) ms")
            } else {
                classify(code, operation)
            }
        var details = "\(description(of: code)); AVERROR \(code)"
        if let logged = log.messageSinceMark {
            details += "; FFmpeg: \(logged)"
        }
        return TasksError(errorCode, "\(operation.failure): \(reason) (\(details)).", subject: .videoSource(source))
    }

    /// The code and plain-words reason for an error that is not a timeout.
    private static func classify(_ code: Int32, _ operation: FFmpegOperation) -> (TasksErrorCode, String) {
        switch code {
        case svt_averror(ENOENT), svt_averror(ENODEV), svt_averror(ENXIO):
            return (.notFoundError, "no such file or device")
        case svt_averror(EACCES), svt_averror(EPERM):
            return (.permissionDeniedError, "permission denied")
        case svt_averror(EISDIR):
            return (.invalidArgumentError, "the path is a directory")
        case svt_averror(ETIMEDOUT):
            return (.deadlineExceededError, "the connection timed out")
        case svt_averror(ECONNREFUSED), svt_averror(ECONNRESET), svt_averror(EHOSTUNREACH),
            svt_averror(ENETUNREACH), svt_averror(EPIPE), svt_averror(EBUSY),
            SVT_AVERROR_HTTP_SERVER_ERROR:
            return (.unavailableError, "the source is unavailable")
        case SVT_AVERROR_HTTP_UNAUTHORIZED:
            return (.unauthenticatedError, "the server requires authentication")
        case SVT_AVERROR_HTTP_FORBIDDEN:
            return (.permissionDeniedError, "the server refused access")
        case SVT_AVERROR_HTTP_NOT_FOUND:
            return (.notFoundError, "the server has no such resource")
        case SVT_AVERROR_HTTP_BAD_REQUEST, SVT_AVERROR_HTTP_OTHER_4XX:
            return (.invalidArgumentError, "the server rejected the request")
        case svt_averror(ENOMEM):
            return (.resourceExhaustedError, "out of memory")
        case SVT_AVERROR_INVALIDDATA:
            return operation.isOpening
                ? (.invalidArgumentError, "not a video format FFmpeg recognizes, or the data is damaged")
                : (.dataLossError, "the data is damaged")
        case SVT_AVERROR_EOF:
            return operation.isOpening
                ? (.invalidArgumentError, "the source ended before any video could be read")
                : (.dataLossError, "the source ended unexpectedly")
        case SVT_AVERROR_STREAM_NOT_FOUND:
            return (.invalidArgumentError, "the source has no video stream")
        case SVT_AVERROR_DECODER_NOT_FOUND:
            return (.unimplementedError, "this FFmpeg build has no decoder for the video codec")
        case SVT_AVERROR_DEMUXER_NOT_FOUND:
            return (.invalidArgumentError, "unknown input format")
        case SVT_AVERROR_PROTOCOL_NOT_FOUND:
            return (.invalidArgumentError, "unknown or unsupported URL protocol")
        case SVT_AVERROR_OPTION_NOT_FOUND, svt_averror(EINVAL), svt_averror(ERANGE):
            return (.invalidArgumentError, "an option or parameter is invalid")
        case SVT_AVERROR_PATCHWELCOME, svt_averror(ENOSYS):
            return (.unimplementedError, "a feature of the source is not implemented in FFmpeg")
        case SVT_AVERROR_EXIT:
            return (.cancelledError, "the operation was interrupted")
        case svt_averror(EIO):
            return (operation.isOpening ? .unavailableError : .dataLossError, "input/output error")
        case SVT_AVERROR_BUG:
            return (.internalError, "FFmpeg reported an internal bug")
        default:
            return (.unknownError, "FFmpeg reported an error")
        }
    }
}
