import Foundation
import TestSupport
import Testing

/// What a `vision-tasks models download` process leaves in the user's home.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelsDownloadProcessTests {
    typealias Site = ModelsCommandTests.Site

    /// A download writes nothing in the user's home outside the model cache: no URL cache folder
    /// (`org.swift.foundation.URLCache`), no cookie store.
    @Test func downloadLeavesTheHomeFolderAlone() async throws {
        let site = try Site()
        #expect(try await VisionTasksTool.run(["models", "index", site.server.root.path]).status == 0)
        let home = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = site.environment.merging([
            "HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
        ]) { $1 }
        let run = try await VisionTasksTool.run(["models", "download", "mobilenet"], environment: environment)
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.subpaths(atPath: home.path) == [])
    }
}
