import ModelDownloads

/// Timeouts and retries of ``ModelManager`` downloads. No ML Kit equivalent (Firebase chose them).
///
/// A transfer fails with deadlineExceeded when no byte arrives for ``stallTimeout`` seconds
/// (connecting included) or when it lasts longer than ``resourceTimeout``. A dropped connection
/// (closed before the announced Content-Length, reset, or stalled) and HTTP 502, 503 and 504 are
/// retried from the start, up to ``maxAttempts`` attempts in all, waiting ``retryDelay`` seconds
/// before the first retry and twice as long before each next one. A refused connection, other
/// HTTP errors and wrong content fail at once.
public struct ModelTransferOptions: Sendable, Equatable {
    /// Seconds without data before a transfer is abandoned. Default 30.
    public var stallTimeout: Double
    /// Seconds for a whole transfer. Default 3600.
    public var resourceTimeout: Double
    /// Attempts in all, at least 1. Default 3.
    public var maxAttempts: Int
    /// Seconds before the first retry, doubled for each later one. Default 1.
    public var retryDelay: Double

    /// Options with the given values (the defaults above when omitted).
    public init(stallTimeout: Double = 30, resourceTimeout: Double = 3600, maxAttempts: Int = 3, retryDelay: Double = 1) {
        (self.stallTimeout, self.resourceTimeout, self.maxAttempts, self.retryDelay) =
            (stallTimeout, resourceTimeout, maxAttempts, retryDelay)
    }

    init(_ settings: TransferSettings) {
        self.init(
            stallTimeout: settings.stallTimeout, resourceTimeout: settings.resourceTimeout,
            maxAttempts: settings.maxAttempts, retryDelay: settings.retryDelay)
    }

    var settings: TransferSettings {
        TransferSettings(
            stallTimeout: stallTimeout, resourceTimeout: resourceTimeout, maxAttempts: maxAttempts, retryDelay: retryDelay)
    }
}
