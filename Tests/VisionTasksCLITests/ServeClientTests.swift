import Foundation
import TestSupport
import Testing

/// Real clients against `vision-tasks serve`: Triton's Python HTTP client and the web page in
/// headless Chromium driven by Selenium (`scripts/test-serve-clients`, in the virtual
/// environment `scripts/bootstrap --tests` makes; it fails, and so does this test, when that
/// environment or Chromium is missing). The page's screenshot is kept as
/// `.build/artifacts/serve-web-page.png`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServeClientTests {
    static let screenshot = HeadlessChromium.artifacts.appendingPathComponent("serve-web-page.png")

    @Test func tritonClientAndWebPage() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = try await VisionTasksTool.run([
            "classify", "--model", ServerProcess.mobilenet, "--format", "json", ServeTests.burger.path, ServeTests.sparrow.path,
        ])
        try #require(cli.status == 0, "\(cli)")
        let expected = folder.appendingPathComponent("expected.json")
        try Data(cli.stdout.utf8).write(to: expected)
        try FileManager.default.createDirectory(at: HeadlessChromium.artifacts, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: Self.screenshot)

        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let script = TestData.packageRoot.appendingPathComponent("scripts/test-serve-clients").path
        let run = try await ExternalProgram.run(
            script, [server.url("").absoluteString, expected.path, Self.screenshot.path], safetyNet: 600)
        #expect(run.status == 0, "\(run)\n--- stdout\n\(run.text)")
        #expect(run.text.contains("json: ['cheeseburger', "), "\(run.text)")
        #expect(run.text.contains("binary: ['cheeseburger', "), "\(run.text)")
        #expect(run.text.contains("triton client: ok"), "\(run.text)")
        #expect(run.text.contains("web page: first bar cheeseburger"), "\(run.text)")
        #expect(FileManager.default.fileExists(atPath: Self.screenshot.path))
        #expect(await server.terminate() == 0)
    }

    /// Triton's client receives `[2, 1024]` FP32 from the uint8 feature extractor (no metadata:
    /// served with --task embed), in the JSON and the binary form, equal to `embed --format json`.
    @Test func tritonClientReadsEmbeddings() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = try await VisionTasksTool.run([
            "embed", "--model", EmbedCommandTests.extractor, "--format", "json", ServeTests.burger.path, ServeTests.sparrow.path,
        ])
        try #require(cli.status == 0, "\(cli)")
        let expected = folder.appendingPathComponent("expected.json")
        try Data(cli.stdout.utf8).write(to: expected)

        let server = try await ServerProcess(["--model", "extractor=\(EmbedCommandTests.extractor)", "--task", "embed"])
        let script = TestData.packageRoot.appendingPathComponent("scripts/test-serve-clients").path
        let run = try await ExternalProgram.run(
            script, ["--embed", server.url("").absoluteString, "extractor", expected.path], safetyNet: 600)
        #expect(run.status == 0, "\(run)\n--- stdout\n\(run.text)")
        #expect(run.text.contains("embedding json: [2, 1024] float32, equal to embed's"), "\(run.text)")
        #expect(run.text.contains("embedding binary: [2, 1024] float32, equal to embed's"), "\(run.text)")
        #expect(run.text.contains("triton embed: ok"), "\(run.text)")
        #expect(await server.terminate() == 0)
    }
}
