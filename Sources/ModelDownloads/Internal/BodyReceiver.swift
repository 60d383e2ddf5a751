import CCurl
import FileSystem
import Foundation
import TasksCommon

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Receives one response into the output file, hashing it, and stops the transfer at the first
/// check that fails: the status, the Content-Length, the first byte past the limit, a stall, the
/// total time, the caller's cancellation. Used on the thread performing the transfer only.
final class BodyReceiver: CurlReceiver {
    /// The head of a redirect, which ended the transfer before its body.
    private(set) var redirect: CurlResponseHead?

    private let url: URL
    private let output: FileHandle
    private let limits: TransferLimits
    private let started: Double
    private let progress: @Sendable (Int64) -> Void
    private let isCancelled: @Sendable () -> Bool
    private let hasher = SHA256Hasher()
    private var failure: HTTPTransfer.Failure?
    private var received: Int64 = 0
    private var contentLength: Int64?
    private var lastActivity = monotonicNow()

    init(
        url: URL, output: FileHandle, limits: TransferLimits, started: Double,
        progress: @escaping @Sendable (Int64) -> Void, isCancelled: @escaping @Sendable () -> Bool
    ) {
        (self.url, self.output, self.limits, self.started, self.progress, self.isCancelled) =
            (url, output, limits, started, progress, isCancelled)
    }

    func headEnded(_ head: CurlResponseHead) -> Bool {
        lastActivity = monotonicNow()
        guard head.status >= 200 else { return true }  // 100 Continue and other interim responses
        if [301, 302, 303, 307, 308].contains(head.status) {
            redirect = head
            return false
        }
        failure = check(head)
        contentLength = head.contentLength
        return failure == nil
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = monotonicNow()
        let limit = limits.bodyByteLimit
        guard received + Int64(bytes.count) <= limit else {
            failure = HTTPTransfer.Failure(
                code: .dataLossError, reason: "\(url.absoluteString) sent more than the \(limit) bytes expected",
                isRetryable: false)
            return false
        }
        do {
            try output.write(contentsOf: bytes)
        } catch {
            failure = HTTPTransfer.Failure(
                code: .internalError, reason: "cannot write the download: \(error)", isRetryable: false)
            return false
        }
        hasher.update(bytes)
        received += Int64(bytes.count)
        progress(received)
        return true
    }

    func shouldStop() -> Bool {
        if failure == nil { failure = timeOrCancellation() }
        return failure != nil
    }

    /// What the transfer delivered, once libcurl has returned `completion`.
    func outcome(after completion: CurlHandle.Completion) throws(HTTPTransfer.Failure) -> HTTPTransfer.Outcome {
        if let failure { throw failure }
        guard completion.succeeded else { throw failure(for: completion) }
        return HTTPTransfer.Outcome(byteCount: received, sha256: hasher.finalize(), contentLength: contentLength)
    }

    private func timeOrCancellation() -> HTTPTransfer.Failure? {
        let now = monotonicNow()
        let settings = limits.settings
        if isCancelled() {
            return HTTPTransfer.Failure(code: .cancelledError, reason: "the download was cancelled", isRetryable: false)
        }
        if now - lastActivity > settings.stallTimeout {
            return HTTPTransfer.Failure(
                code: .deadlineExceededError,
                reason: "no data from \(url.absoluteString) for \(settings.stallTimeout) s (stall timeout)", isRetryable: true)
        }
        if now - started > settings.resourceTimeout {
            return HTTPTransfer.Failure(
                code: .deadlineExceededError,
                reason: "\(url.absoluteString) took longer than \(settings.resourceTimeout) s (resource timeout)",
                isRetryable: false)
        }
        return nil
    }

    private func check(_ head: CurlResponseHead) -> HTTPTransfer.Failure? {
        let status = head.status
        guard status == 200 else {
            let code: TasksErrorCode =
                switch status {
                case 404, 410: .notFoundError
                case 401: .unauthenticatedError
                case 403: .permissionDeniedError
                default: .unavailableError
                }
            return HTTPTransfer.Failure(
                code: code,
                reason:
                    "HTTP status \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status))) for \(url.absoluteString)",
                isRetryable: [502, 503, 504].contains(status))
        }
        guard let length = head.contentLength else { return nil }
        if let expected = limits.expectedByteCount, length != expected {
            return HTTPTransfer.Failure(
                code: .dataLossError,
                reason: "\(url.absoluteString) has Content-Length \(length), the index says \(expected) bytes",
                isRetryable: false)
        }
        if length > limits.maximumByteCount {
            return HTTPTransfer.Failure(
                code: .resourceExhaustedError,
                reason:
                    "\(url.absoluteString) has Content-Length \(length), over the limit of \(limits.maximumByteCount) bytes",
                isRetryable: false)
        }
        return nil
    }

    /// The failure libcurl reported, when no check of ours stopped the transfer.
    private func failure(for completion: CurlHandle.Completion) -> HTTPTransfer.Failure {
        let text = "\(url.absoluteString): \(completion.message)"
        switch completion.code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return HTTPTransfer.Failure(code: .unavailableError, reason: "cannot connect to \(text)", isRetryable: false)
        case CURLE_PARTIAL_FILE:
            let expected = contentLength.map { " of \($0)" } ?? ""
            return HTTPTransfer.Failure(
                code: .unavailableError,
                reason: "the connection closed after \(received)\(expected) bytes of \(url.absoluteString)", isRetryable: true)
        case CURLE_OPERATION_TIMEDOUT:
            return HTTPTransfer.Failure(code: .deadlineExceededError, reason: "timed out: \(text)", isRetryable: true)
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            return HTTPTransfer.Failure(code: .unavailableError, reason: "connection lost: \(text)", isRetryable: true)
        default:
            return HTTPTransfer.Failure(code: .unavailableError, reason: "transfer failed: \(text)", isRetryable: true)
        }
    }
}
