/// Conditions for downloading a model. Mirrors ML Kit's `ModelDownloadConditions`.
///
/// Kept for porting; on Linux neither condition changes anything:
/// - `allowsCellularAccess`: Linux has no notion of a metered cellular link for URLSession, so
///   downloads use whatever network the machine has.
/// - `allowsBackgroundDownloading`: there are no background URLSessions on Linux; a download
///   runs in the process while it lives, and a process that exits ends it (the next
///   ``ModelManager/download(_:conditions:)`` starts over, leaving any installed version in place).
public struct ModelDownloadConditions: Sendable, Equatable {
    /// Whether a cellular connection may be used (no effect on Linux).
    public let allowsCellularAccess: Bool
    /// Whether the download may continue in the background (no effect on Linux).
    public let allowsBackgroundDownloading: Bool

    /// Conditions with ML Kit's defaults: both allowed.
    public init() {
        self.init(allowsCellularAccess: true, allowsBackgroundDownloading: true)
    }

    /// Conditions as given.
    public init(allowsCellularAccess: Bool, allowsBackgroundDownloading: Bool) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
    }
}
