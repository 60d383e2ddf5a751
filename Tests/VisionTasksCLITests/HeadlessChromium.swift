import Foundation
import TestSupport
import Testing

/// Debian's headless Chromium, which the report tests open their HTML reports in: the DOM it
/// builds (`--dump-dom`) and a screenshot (`--screenshot`), kept under `.build/artifacts`.
enum HeadlessChromium {
    /// The environment variable that names the browser to use instead of `chromium` on `PATH`.
    static let environmentVariable = "CHROMIUM"

    /// The browser, or nil when it is not installed.
    static let path: String? =
        ProcessInfo.processInfo.environment[environmentVariable]
        ?? ExternalProgram.find(["chromium", "chromium-browser", "google-chrome"])

    /// Whether the report tests can run: the browser, python3 (which reads the DOM) and the shared test data.
    static var isAvailable: Bool { path != nil && ExternalProgram.find(["python3"]) != nil && TestData.isAvailable }

    /// Why the report tests are skipped.
    static var missingReason: Comment {
        if path == nil {
            return
                "headless Chromium is not installed: run ./scripts/bootstrap --tests (it installs Debian's), or set \(environmentVariable)"
        }
        if ExternalProgram.find(["python3"]) == nil { return "python3 is not installed" }
        return Comment(rawValue: TestData.missingReason)
    }

    /// Where screenshots are kept: `.build/artifacts` in the package.
    static let artifacts = TestData.packageRoot.appendingPathComponent(".build/artifacts")

    /// The flags every run takes: headless, as root in a container (no sandbox), a profile of its own.
    private static func flags(profile: URL) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions", "--hide-scrollbars", "--user-data-dir=\(profile.path)",
        ]
    }

    /// The DOM Chromium builds from `page`, serialized.
    static func dumpDOM(_ page: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let browser = try #require(path, "chromium not found", sourceLocation: sourceLocation)
        let profile = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: profile) }
        let run = try await ExternalProgram.run(
            browser, flags(profile: profile) + ["--dump-dom", page.absoluteString],
            sourceLocation: sourceLocation)
        try #require(run.status == 0 && !run.stdout.isEmpty, "\(run)", sourceLocation: sourceLocation)
        return run.text
    }

    /// Takes a screenshot of `page` in a window of `width` x `height` pixels into `.build/artifacts/<name>`.
    /// - Returns: the PNG's location.
    @discardableResult
    static func screenshot(
        _ page: URL, name: String, width: Int = 1280, height: Int = 1600,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> URL {
        let browser = try #require(path, "chromium not found", sourceLocation: sourceLocation)
        let profile = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: profile) }
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let output = artifacts.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: output)
        let run = try await ExternalProgram.run(
            browser,
            flags(profile: profile) + ["--screenshot=\(output.path)", "--window-size=\(width),\(height)", page.absoluteString],
            sourceLocation: sourceLocation)
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        let png = try Data(contentsOf: output)
        #expect(
            png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a PNG screenshot at \(output.path)",
            sourceLocation: sourceLocation)
        return output
    }
}
