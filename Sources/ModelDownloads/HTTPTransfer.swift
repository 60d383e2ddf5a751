import Foundation
import TasksCommon

/// One HTTP GET streamed into a file with libcurl on the caller's thread, hashed as it arrives.
///
/// The transfer stops at once, closing the connection, when a check fails: the status, the
/// Content-Length, the first byte past the expected size, the stall and total timeouts, the
/// caller's cancellation. Redirects are followed here, one at a time, only within the
/// requested URL's origin.
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
                let limits = TransferLimits(
                    settings: settings, maximumByteCount: maximumByteCount, expectedByteCount: expectedByteCount)
                return try TransferAttempt(url: url, file: file, limits: limits).run(
                    progress: progress, isCancelled: isCancelled)
            } catch {
                guard error.isRetryable, attempt < settings.maxAttempts, !isCancelled() else { throw error }
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
                attempt += 1
            }
        }
    }
}
