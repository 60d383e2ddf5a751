import Foundation

/// The package's cache folder, which the model cache (`models/`) and the training feature
/// cache (`features/`) live below.
package enum PackageCacheDirectory {
    /// `$XDG_CACHE_HOME/swift-vision-tasks`, else `$HOME/.cache/swift-vision-tasks`.
    package static func url(_ environment: [String: String]) -> URL {
        // The XDG Base Directory spec ignores a relative XDG_CACHE_HOME.
        let base =
            absoluteDirectory(environment["XDG_CACHE_HOME"])
            ?? homeDirectory(environment).appendingPathComponent(".cache", isDirectory: true)
        return base.appendingPathComponent("swift-vision-tasks", isDirectory: true)
    }

    /// `$HOME` as shells, XDG and the scripts read it; the account's home directory only when
    /// it is unset or relative (FoundationEssentials' `homeDirectoryForCurrentUser` reads the
    /// account database, not `$HOME`, on Linux).
    private static func homeDirectory(_ environment: [String: String]) -> URL {
        absoluteDirectory(environment["HOME"]) ?? FileManager.default.homeDirectoryForCurrentUser
    }

    /// `path` as a directory URL when it is absolute.
    private static func absoluteDirectory(_ path: String?) -> URL? {
        path.flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
    }
}
