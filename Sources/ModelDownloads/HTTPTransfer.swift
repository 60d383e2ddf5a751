import Dispatch
import Foundation
import Synchronization
import TasksCommon

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP GET streamed into a file with URLSession's delegate API, hashed as it arrives.
///
/// The caller's thread waits on a semaphore the delegate signals, waking a few times a second
/// to enforce the stall and total timeouts; it cancels the `URLSessionTask` itself. No Swift
/// `Task` cancellation handler is involved, so the corelibs deadlock between a cancellation
/// handler and the session's work queue cannot happen.
package enum HTTPTransfer {
    /// What a complete transfer delivered.
    package struct Outcome: Sendable {
        /// Bytes written to the file.
        package let byteCount: Int64
        /// Their SHA-256, 64 lowercase hexadecimal digits.
        package let sha256: String
        /// The Content-Length the server announced (and `byteCount` reached), if it sent one.
        package let contentLength: Int64?
    }

    /// Why an attempt failed, and whether another attempt may succeed.
    package struct Failure: Error, Sendable {
        package let code: TasksErrorCode
        package let reason: String
        package let isRetryable: Bool
    }

    /// Why `url` cannot be fetched, or nil when it can: an http or https URL with a host.
    /// (URLSession would fail other schemes only after the retries, and libcurl would speak
    /// FTP to an `ftp:` source.)
    package static func problem(with url: URL) -> String? {
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? ""), !(url.host ?? "").isEmpty else {
            return "a model source is an http or https URL with a host, such as https://example.com/models/"
        }
        return nil
    }

    /// Downloads `url` into `file` (created or truncated), retrying as `settings` says.
    /// - Parameters:
    ///   - maximumByteCount: the most bytes accepted; a larger body fails at once.
    ///   - expectedByteCount: the size the index gives, checked against Content-Length.
    ///   - progress: called with the bytes received so far in the current attempt.
    ///   - isCancelled: polled; true abandons the transfer with a cancelled failure.
    /// - Throws: `Failure` of the last attempt; invalidArgument at once for a URL `problem(with:)`
    ///   refuses.
    package static func fetch(
        _ url: URL, to file: URL, settings: TransferSettings, maximumByteCount: Int64, expectedByteCount: Int64?,
        progress: @escaping @Sendable (Int64) -> Void, isCancelled: @escaping @Sendable () -> Bool
    ) throws(Failure) -> Outcome {
        if let problem = problem(with: url) {
            throw Failure(code: .invalidArgumentError, reason: "\(url.absoluteString): \(problem)", isRetryable: false)
        }
        var delay = settings.retryDelay
        var attempt = 1
        while true {
            do throws(Failure) {
                let request = Request(
                    url: url, file: file, settings: settings, maximumByteCount: maximumByteCount,
                    expectedByteCount: expectedByteCount)
                return try request.run(progress: progress, isCancelled: isCancelled)
            } catch {
                guard error.isRetryable, attempt < settings.maxAttempts, !isCancelled() else { throw error }
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
                attempt += 1
            }
        }
    }
}

/// One attempt.
private struct Request {
    let url: URL
    let file: URL
    let settings: TransferSettings
    let maximumByteCount: Int64
    let expectedByteCount: Int64?

    func run(
        progress: @escaping @Sendable (Int64) -> Void, isCancelled: @escaping @Sendable () -> Bool
    ) throws(HTTPTransfer.Failure) -> HTTPTransfer.Outcome {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: file)
        else {
            throw HTTPTransfer.Failure(code: .internalError, reason: "cannot create \(file.path)", isRetryable: false)
        }
        defer { try? handle.close() }
        let delegate = TransferDelegate(
            url: url, handle: handle, maximumByteCount: maximumByteCount, expectedByteCount: expectedByteCount,
            progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        // The watchdog below enforces both timeouts exactly; these are a backstop.
        configuration.timeoutIntervalForRequest = settings.stallTimeout + 5
        configuration.timeoutIntervalForResource = settings.resourceTimeout + 5
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        // The session keeps its delegate until it is invalidated.
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URLRequest(url: url))
        task.resume()
        watch(task, delegate: delegate, isCancelled: isCancelled)
        return try delegate.outcome()
    }

    /// Waits for the task to finish, cancelling it when it stalls, overruns or is cancelled.
    private func watch(_ task: URLSessionDataTask, delegate: TransferDelegate, isCancelled: () -> Bool) {
        let tick = min(0.25, settings.stallTimeout / 4)
        let start = monotonicNow()
        while delegate.finished.wait(timeout: .now() + tick) == .timedOut {
            let now = monotonicNow()
            let failure: HTTPTransfer.Failure? =
                if isCancelled() {
                    HTTPTransfer.Failure(code: .cancelledError, reason: "the download was cancelled", isRetryable: false)
                } else if now - delegate.lastActivity > settings.stallTimeout {
                    HTTPTransfer.Failure(
                        code: .deadlineExceededError,
                        reason: "no data from \(url.absoluteString) for \(settings.stallTimeout) s (stall timeout)",
                        isRetryable: true)
                } else if now - start > settings.resourceTimeout {
                    HTTPTransfer.Failure(
                        code: .deadlineExceededError,
                        reason: "\(url.absoluteString) took longer than \(settings.resourceTimeout) s (resource timeout)",
                        isRetryable: false)
                } else {
                    nil
                }
            if let failure {
                delegate.fail(failure)
                task.cancel()
                delegate.finished.wait()
                return
            }
        }
    }
}

/// Seconds on the monotonic clock.
private func monotonicNow() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// Receives the response and body on the session's serial queue.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: every mutable field is inside `state`; `hasher` and `handle` are used only on
    // the session's serial delegate queue.
    private struct State {
        var received: Int64 = 0
        var contentLength: Int64?
        var failure: HTTPTransfer.Failure?
        var lastActivity = monotonicNow()
    }

    let finished = DispatchSemaphore(value: 0)
    private let state = Mutex(State())
    private let hasher = SHA256Hasher()
    private let url: URL
    private let handle: FileHandle
    private let maximumByteCount: Int64
    private let expectedByteCount: Int64?
    private let progress: @Sendable (Int64) -> Void

    init(
        url: URL, handle: FileHandle, maximumByteCount: Int64, expectedByteCount: Int64?,
        progress: @escaping @Sendable (Int64) -> Void
    ) {
        (self.url, self.handle, self.maximumByteCount, self.expectedByteCount, self.progress) =
            (url, handle, maximumByteCount, expectedByteCount, progress)
    }

    var lastActivity: Double { state.withLock { $0.lastActivity } }

    /// Records the first failure; later ones are consequences of it.
    func fail(_ failure: HTTPTransfer.Failure) {
        state.withLock { if $0.failure == nil { $0.failure = failure } }
    }

    func outcome() throws(HTTPTransfer.Failure) -> HTTPTransfer.Outcome {
        let (received, length, failure) = state.withLock { ($0.received, $0.contentLength, $0.failure) }
        if let failure { throw failure }
        return HTTPTransfer.Outcome(byteCount: received, sha256: hasher.finalize(), contentLength: length)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let failure = check(response) {
            fail(failure)
            completionHandler(.cancel)
            return
        }
        state.withLock {
            $0.contentLength = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
            $0.lastActivity = monotonicNow()
        }
        completionHandler(.allow)
    }

    private func check(_ response: URLResponse) -> HTTPTransfer.Failure? {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
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
        let length = response.expectedContentLength
        if let expectedByteCount, length >= 0, length != expectedByteCount {
            return HTTPTransfer.Failure(
                code: .dataLossError,
                reason: "\(url.absoluteString) has Content-Length \(length), the index says \(expectedByteCount) bytes",
                isRetryable: false)
        }
        if length > maximumByteCount {
            return HTTPTransfer.Failure(
                code: .resourceExhaustedError,
                reason: "\(url.absoluteString) has Content-Length \(length), over the limit of \(maximumByteCount) bytes",
                isRetryable: false)
        }
        return nil
    }

    /// Follows a redirect only within the requested URL's origin: a source must not send the
    /// client to an address the user did not configure (another host, port or scheme).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let target = request.url, Self.origin(of: target) == Self.origin(of: url) else {
            let target = request.url?.absoluteString ?? "no URL"
            fail(
                HTTPTransfer.Failure(
                    code: .permissionDeniedError,
                    reason:
                        "\(url.absoluteString) redirects to \(target), another origin; redirects are followed only to the same scheme, host and port",
                    isRetryable: false))
            completionHandler(nil)
            return
        }
        completionHandler(request)
    }

    /// Scheme, host and port (the scheme's default when absent), lowercased.
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? ["http": 80, "https": 443][scheme] ?? -1
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let total = state.withLock { state -> Int64? in
            guard state.failure == nil else { return nil }
            state.received += Int64(data.count)
            state.lastActivity = monotonicNow()
            return state.received
        }
        guard let total else { return }
        guard total <= maximumByteCount, total <= (expectedByteCount ?? .max) else {
            fail(
                HTTPTransfer.Failure(
                    code: .dataLossError,
                    reason:
                        "\(url.absoluteString) sent more than the \(min(maximumByteCount, expectedByteCount ?? .max)) bytes expected",
                    isRetryable: false))
            dataTask.cancel()
            return
        }
        do {
            try handle.write(contentsOf: data)
        } catch {
            fail(HTTPTransfer.Failure(code: .internalError, reason: "cannot write the download: \(error)", isRetryable: false))
            dataTask.cancel()
            return
        }
        hasher.update(data)
        progress(total)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (received, length) = state.withLock { ($0.received, $0.contentLength) }
        if let length, received < length, (error as? URLError)?.code != .cancelled {
            // libcurl reports this as an error of its own ("transfer closed with n bytes remaining").
            fail(
                HTTPTransfer.Failure(
                    code: .unavailableError,
                    reason: "the connection closed after \(received) of \(length) bytes of \(url.absoluteString)",
                    isRetryable: true))
        } else if let error {
            fail(Self.failure(for: error, url: url))
        }
        finished.signal()
    }

    private static func failure(for error: any Error, url: URL) -> HTTPTransfer.Failure {
        let code = (error as? URLError)?.code
        let text = "\(url.absoluteString): \((error as NSError).localizedDescription)"
        switch code {
        case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?:
            return HTTPTransfer.Failure(code: .unavailableError, reason: "cannot connect to \(text)", isRetryable: false)
        case .timedOut?:
            return HTTPTransfer.Failure(code: .deadlineExceededError, reason: "timed out: \(text)", isRetryable: true)
        case .networkConnectionLost?, .notConnectedToInternet?:
            return HTTPTransfer.Failure(code: .unavailableError, reason: "connection lost: \(text)", isRetryable: true)
        case .cancelled?:
            return HTTPTransfer.Failure(code: .cancelledError, reason: "cancelled: \(text)", isRetryable: false)
        default:
            return HTTPTransfer.Failure(code: .unavailableError, reason: "transfer failed: \(text)", isRetryable: true)
        }
    }
}
