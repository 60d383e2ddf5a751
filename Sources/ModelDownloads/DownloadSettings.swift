import Foundation
import ModelCache

/// Where models come from and go, and how transfers behave.
package struct DownloadSettings: Sendable {
    /// The model cache: `<cacheDirectory>/<name>/...` (see `ModelStore`).
    package var cacheDirectory: URL
    /// The base URL whose `index.json` lists the models; nil when none is configured.
    package var sourceURL: URL?
    /// Timeouts and retries.
    package var transfer: TransferSettings
    /// The most bytes a zip bundle may unpack to, all entries together (zip bomb guard).
    package var unpackedSizeLimit: Int64

    /// The environment variable naming the default model source's base URL.
    package static let sourceVariable = "VISION_TASKS_MODEL_SOURCE"
    /// The environment variable naming the default cache directory.
    package static let cacheVariable = "VISION_TASKS_MODEL_CACHE"
    /// 2 GiB: the largest .tflite model (a FlatBuffer's offsets are 32-bit) plus its labels.
    package static let defaultUnpackedSizeLimit: Int64 = (2 << 30) + (64 << 20)

    package init(
        cacheDirectory: URL, sourceURL: URL?, transfer: TransferSettings = TransferSettings(),
        unpackedSizeLimit: Int64 = DownloadSettings.defaultUnpackedSizeLimit
    ) {
        (self.cacheDirectory, self.sourceURL, self.transfer, self.unpackedSizeLimit) =
            (cacheDirectory, sourceURL, transfer, unpackedSizeLimit)
    }

    /// The settings from the environment: the cache in `VISION_TASKS_MODEL_CACHE`, else
    /// `$XDG_CACHE_HOME/swift-vision-tasks/models`, else `$HOME/.cache/swift-vision-tasks/models`;
    /// the source in `VISION_TASKS_MODEL_SOURCE`, else none.
    package static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> DownloadSettings
    {
        DownloadSettings(cacheDirectory: defaultCacheDirectory(environment), sourceURL: sourceURL(environment))
    }

    /// The cache directory the environment gives (see `fromEnvironment`).
    package static func defaultCacheDirectory(_ environment: [String: String]) -> URL {
        if let explicit = environment[cacheVariable], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        return PackageCacheDirectory.url(environment).appendingPathComponent("models", isDirectory: true)
    }

    /// The model source the environment gives, if any.
    package static func sourceURL(_ environment: [String: String]) -> URL? {
        environment[sourceVariable].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }
}

/// Timeouts and retries of one HTTP transfer.
///
/// A transfer fails with deadlineExceeded when no byte arrives for `stallTimeout` seconds
/// (connecting included) or when it takes longer than `resourceTimeout` in all. A dropped
/// connection (closed before the announced length, reset, or stalled), and HTTP 502, 503 and
/// 504, are retried from the start up to `maxAttempts` attempts in all, waiting `retryDelay`
/// seconds before the second attempt and doubling the wait before each later one.
/// Refused connections, other HTTP errors and wrong content are not retried. A redirect is
/// followed only within the requested URL's scheme, host and port.
package struct TransferSettings: Sendable {
    /// Seconds without data before the transfer is abandoned. Default 30.
    package var stallTimeout: Double = 30
    /// Seconds for a whole transfer. Default 3600.
    package var resourceTimeout: Double = 3600
    /// Attempts in all, at least 1. Default 3.
    package var maxAttempts: Int = 3
    /// Seconds before the first retry, doubled for each later one. Default 1.
    package var retryDelay: Double = 1

    package init(stallTimeout: Double = 30, resourceTimeout: Double = 3600, maxAttempts: Int = 3, retryDelay: Double = 1) {
        (self.stallTimeout, self.resourceTimeout, self.maxAttempts, self.retryDelay) =
            (stallTimeout, resourceTimeout, max(1, maxAttempts), max(0, retryDelay))
    }
}
