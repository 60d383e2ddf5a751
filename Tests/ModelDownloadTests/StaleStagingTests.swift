import Foundation
import ImageLabeling
import TestSupport
import Testing

extension ModelManagerSuites {
    /// Staging folders left by downloads whose process died.
    @Suite struct StaleStagingTests {
        /// A staging folder with a partial bundle that no download owns (as SIGKILL leaves one) is
        /// removed by the model's next download.
        @Test func nextDownloadRemovesStaleStaging() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            let stale = fixture.cache.appendingPathComponent("flowers/.staging-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
            try Data(repeating: 0x50, count: 4096).write(to: stale.appendingPathComponent("bundle"))
            #expect(fixture.temporaries.count == 1)
            #expect(await fixture.download() == .succeeded)
            #expect(fixture.temporaries == [])
            #expect(fixture.installed?.version == 1)
        }
    }
}
