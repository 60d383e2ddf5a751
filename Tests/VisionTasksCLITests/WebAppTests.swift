import Foundation
import TestSupport
import Testing

/// The web app of `serve` in headless Chromium driven by Selenium (`scripts/test-web-app`,
/// which starts its own servers on free loopback ports): live camera from a fake device playing
/// a burger-then-sparrow clip, gallery with photos and a video, settings, no camera and wrong
/// token, layout at 1280 and 390 px. Screenshots are kept in `.build/artifacts/web-app`.
@Suite(.enabled(if: HeadlessChromium.isAvailable, HeadlessChromium.missingReason))
struct WebAppTests {
    static let artifacts = HeadlessChromium.artifacts.appendingPathComponent("web-app")

    @Test func liveGallerySettingsAndErrorWordsInChromium() async throws {
        let executable = try #require(VisionTasksTool.executable, "vision-tasks not found next to the test bundle")
        try? FileManager.default.removeItem(at: Self.artifacts)
        let script = TestData.packageRoot.appendingPathComponent("scripts/test-web-app").path
        let run = try await ExternalProgram.run(
            script, ["--vision-tasks", executable.path, Self.artifacts.path], safetyNet: 600)
        // A failure prints the script's whole output once (what the page showed, the server's log).
        guard run.status == 0 else {
            Issue.record("scripts/test-web-app exited \(run.status):\n\(run)\n--- stdout\n\(run.text)")
            return
        }
        for line in [
            "live: cheeseburger", "live: then brambling without reload", "at most 1 in flight, 0 waiting",
            "video spans ['cheeseburger', 'brambling']", "gallery: video progress shown: ['Uploading…', 'Classifying…']",
            "gallery: Nothing scored at or above the threshold of 100.0%.",
            "gallery: embedder: burger.jpg: Most similar among these photos: burger_crop.jpg",
            "no camera: No camera was found. You can still classify photos and videos in the Gallery.",
            "no camera: Try again asks for the camera again", "(0 sent twice)",
            "gallery: Clear removed every card and revoked their object URLs",
            "wrong token: The access token was refused. Check it under Settings.", "web app: ok",
        ] {
            #expect(run.text.contains(line), "missing '\(line)' in:\n\(run.text)")
        }
        for screen in ["live", "gallery", "settings"] {
            for width in [1280, 390] {
                let png = Self.artifacts.appendingPathComponent("web-app-\(screen)-\(width).png")
                #expect((try? Data(contentsOf: png))?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true, "\(png.path)")
            }
        }
    }
}
