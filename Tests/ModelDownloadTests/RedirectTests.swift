import Foundation
import ImageLabeling
import TasksCommon
import TestSupport
import Testing

extension ModelManagerSuites {
    /// A model source may redirect within itself, never to an address the user did not configure.
    @Suite struct RedirectTests {
        /// A redirect to another origin (here another port of 127.0.0.1) fails the download
        /// without contacting it, and the installed version stays.
        @Test func redirectToAnotherOriginIsRefused() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            #expect(await fixture.download() == .succeeded)
            let before = try #require(fixture.installed)

            let other = try StaticModelHost()
            try fixture.publishAutoML(version: 2)
            try FileManager.default.copyItem(
                at: fixture.server.root.appendingPathComponent("flowers-v2.zip"),
                to: other.root.appendingPathComponent("flowers-v2.zip"))
            let target = other.baseURL.appendingPathComponent("flowers-v2.zip").absoluteString
            try fixture.server.inject("redirect:\(target)", at: "/flowers-v2.zip")
            guard let error = await fixture.failedDownload() else { return }
            #expect(error.code == .permissionDeniedError, "\(error)")
            #expect(
                error.message.contains(
                    "step transfer: \(fixture.server.baseURL.absoluteString)flowers-v2.zip redirects to \(target)"),
                "\(error)")
            #expect(other.requestCount("/flowers-v2.zip") == 0)
            #expect(fixture.installed == before)
            #expect(fixture.temporaries == [])
        }

        /// A redirect to another scheme fails the download before any byte is stored, though
        /// swift-corelibs-foundation resolved `file:///etc/hostname` into a path on the same
        /// server (served here, so that following it would install it).
        @Test func redirectToAnotherSchemeIsRefused() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            #expect(await fixture.download() == .succeeded)
            let before = try #require(fixture.installed)

            try fixture.publishAutoML(version: 2)
            let etc = fixture.server.root.appendingPathComponent("etc", isDirectory: true)
            try FileManager.default.createDirectory(at: etc, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: fixture.server.root.appendingPathComponent("flowers-v2.zip"), to: etc.appendingPathComponent("hostname"))
            try fixture.server.inject("redirect:file:///etc/hostname", at: "/flowers-v2.zip")
            guard let error = await fixture.failedDownload() else { return }
            #expect(error.code == .permissionDeniedError, "\(error)")
            #expect(
                error.message.contains(
                    "flowers: download failed at step transfer: \(fixture.server.baseURL.absoluteString)flowers-v2.zip "
                        + "redirects to file:///etc/hostname, another origin"),
                "\(error)")
            #expect(fixture.server.requestCount("/etc/hostname") == 0)
            #expect(fixture.installed == before)
            #expect(fixture.temporaries == [])
        }

        /// A redirect within the source is followed.
        @Test func redirectWithinTheSourceIsFollowed() async throws {
            let fixture = try DownloadFixture()
            try fixture.publishAutoML(version: 1)
            try FileManager.default.moveItem(
                at: fixture.server.root.appendingPathComponent("flowers-v1.zip"),
                to: fixture.server.root.appendingPathComponent("moved.zip"))
            let target = fixture.server.baseURL.appendingPathComponent("moved.zip").absoluteString
            try fixture.server.inject("redirect:\(target)", at: "/flowers-v1.zip")
            #expect(await fixture.download() == .succeeded)
            #expect(fixture.server.requestCount("/moved.zip") == 1)
            #expect(fixture.installed?.version == 1)
        }
    }
}
