import Foundation

/// Locates the shared test data (`../shared/testdata` beside the package root, or the
/// folder named by `SWIFT_VISION_TASKS_TESTDATA`). Tests skip, with a message, when it is absent.
public enum TestData {
    /// The environment variable that overrides the test data folder.
    public static let environmentVariable = "SWIFT_VISION_TASKS_TESTDATA"

    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The test data folder, or nil when it does not exist.
    public static let root: URL? = {
        let url =
            ProcessInfo.processInfo.environment[environmentVariable].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata")
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue ? url : nil
    }()

    /// Whether the test data folder is present; use in `.enabled(if:)` traits.
    public static var isAvailable: Bool { root != nil }

    /// Why tests that need the data are skipped; it names the folder the variable gives, if any
    /// (then `anExplicitTestDataFolderExists` fails too, so the run is not green).
    public static let missingReason: String = {
        if let named = ProcessInfo.processInfo.environment[environmentVariable] {
            return "\(environmentVariable) names \(named), which is not a folder"
        }
        return "shared test data not found: set \(environmentVariable) or place it at ../shared/testdata"
    }()

    /// `testdata/models/<name>`.
    public static func model(_ name: String) -> URL { url("models/\(name)") }
    /// `testdata/images/<name>`.
    public static func image(_ name: String) -> URL { url("images/\(name)") }
    /// `testdata/expected/<name>`.
    public static func expected(_ name: String) -> URL { url("expected/\(name)") }

    /// A path inside the test data folder (a path that does not exist when the folder is missing).
    public static func url(_ relativePath: String) -> URL {
        (root ?? URL(fileURLWithPath: "/nonexistent-testdata")).appendingPathComponent(relativePath)
    }

    /// The bytes of a file inside the test data folder.
    public static func bytes(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// A fresh temporary directory, removed by the caller.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("svt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
