import Dispatch
import Foundation
import TasksCommon

/// The bounds of one transfer.
struct TransferLimits {
    let settings: TransferSettings
    /// The most bytes accepted in any case.
    let maximumByteCount: Int64
    /// The size the index gives, if any.
    let expectedByteCount: Int64?

    /// The most body bytes accepted: the expected size when known, else the maximum.
    var bodyByteLimit: Int64 { min(maximumByteCount, expectedByteCount ?? .max) }
}

/// One attempt: a GET of `url` into `file` (created or truncated), following redirects that stay
/// within `url`'s origin.
struct TransferAttempt {
    /// Redirects followed before the attempt fails.
    static let maximumRedirects = 10

    let url: URL
    let file: URL
    let limits: TransferLimits

    func run(
        progress: @escaping @Sendable (Int64) -> Void, isCancelled: @escaping @Sendable () -> Bool
    ) throws(HTTPTransfer.Failure) -> HTTPTransfer.Outcome {
        guard FileManager.default.createFile(atPath: file.path, contents: nil),
            let output = try? FileHandle(forWritingTo: file)
        else {
            throw HTTPTransfer.Failure(code: .internalError, reason: "cannot create \(file.path)", isRetryable: false)
        }
        defer { try? output.close() }
        guard let curl = CurlHandle() else {
            throw HTTPTransfer.Failure(code: .internalError, reason: "libcurl cannot start a transfer", isRetryable: false)
        }
        let settings = limits.settings
        // libcurl's own timeouts only back up the receiver's, which give the precise reasons.
        let backstop = CurlHandle.Backstop(connect: settings.stallTimeout + 5, total: settings.resourceTimeout + 5)
        let started = monotonicNow()
        var current = url
        for _ in 0...Self.maximumRedirects {
            let receiver = BodyReceiver(
                url: url, output: output, limits: limits, started: started, progress: progress, isCancelled: isCancelled)
            let completion = curl.perform(current, receiver: receiver, backstop: backstop)
            guard let redirect = receiver.redirect else { return try receiver.outcome(after: completion) }
            current = try target(of: redirect, from: current)
        }
        throw HTTPTransfer.Failure(
            code: .unavailableError, reason: "\(url.absoluteString) redirects more than \(Self.maximumRedirects) times",
            isRetryable: false)
    }

    /// Where a redirect leads, when it stays within the requested URL's origin: a source must not
    /// send the client to an address the user did not configure (another host, port or scheme,
    /// such as `file:`). The `Location` header itself is resolved against the current URL
    /// (RFC 3986), so an absolute URL of another scheme keeps that scheme.
    private func target(of redirect: CurlResponseHead, from current: URL) throws(HTTPTransfer.Failure) -> URL {
        guard let location = redirect.location, !location.isEmpty else {
            throw HTTPTransfer.Failure(
                code: .unavailableError,
                reason: "\(url.absoluteString) answered HTTP status \(redirect.status) without a Location header",
                isRetryable: false)
        }
        let origin = Self.origin(of: url)
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL, Self.origin(of: target) == origin else {
            throw HTTPTransfer.Failure(
                code: .permissionDeniedError,
                reason:
                    "\(url.absoluteString) redirects to \(location), another origin; redirects are followed only to the same scheme, host and port",
                isRetryable: false)
        }
        return target
    }

    /// Scheme, host and port (the scheme's default when absent), lowercased.
    private static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? ["http": 80, "https": 443][scheme] ?? -1
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}

/// Seconds on the monotonic clock.
func monotonicNow() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
