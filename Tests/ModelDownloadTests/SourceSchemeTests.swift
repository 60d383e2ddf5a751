import Foundation
import ImageLabeling
import TasksCommon
import TestSupport
import Testing

extension ModelManagerSuites {
    /// A model source that is not an http(s) URL with a host fails at once, without retries.
    @Suite struct SourceSchemeTests {
        @Test(arguments: ["file:///tmp/models/", "ftp://127.0.0.1/models/", "http:///models/"])
        func nonHTTPSourceIsRefused(source: String) async throws {
            let fixture = try DownloadFixture(
                transfer: ModelTransferOptions(stallTimeout: 60, maxAttempts: 3, retryDelay: 30))
            fixture.manager.modelSource = URL(string: source)
            guard let error = await fixture.failedDownload() else { return }
            #expect(error.code == .invalidArgumentError, "\(error)")
            #expect(
                error.message
                    == "flowers: download failed at step index: \(source)index.json: a model source is an http or https URL with a host, such as https://example.com/models/",
                "\(error)")
            #expect(fixture.temporaries == [])
        }
    }
}
