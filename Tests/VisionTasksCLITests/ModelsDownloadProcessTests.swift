import Foundation
import TestSupport
import Testing

/// `vision-tasks models download` processes sharing one cache, interrupted or killed, and what a
/// download leaves in the user's home. The bundle's server holds the second half of the body
/// ("hold") until the test releases it, so that a download is under way while the test acts.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelsDownloadProcessTests {
    typealias Site = ModelsCommandTests.Site

    /// A published site whose flowers bundle is held.
    private func heldSite() async throws -> Site {
        let site = try Site()
        #expect(try await VisionTasksTool.run(["models", "index", site.server.root.path]).status == 0)
        try site.server.inject("hold", at: "/flowers.zip")
        return site
    }

    private func startDownload(_ site: Site) throws -> StreamingToolRun {
        try StreamingToolRun([
            "models", "download", "flowers", "--source", site.server.baseURL.absoluteString, "--cache", site.cache.path,
        ])
    }

    private func entries(_ site: Site, prefix: String) -> [String] {
        let folder = site.cache.appendingPathComponent("flowers").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Whether a staging folder holds the first bytes of the bundle.
    private func partialBundleArrived(_ site: Site) -> Bool {
        entries(site, prefix: ".staging-").contains { staging in
            let bundle = site.cache.appendingPathComponent("flowers/\(staging)/bundle").path
            return ((try? FileManager.default.attributesOfItem(atPath: bundle))?[.size] as? NSNumber)?.intValue ?? 0 > 0
        }
    }

    /// Two processes downloading one model into one cache: the second waits for the first, then
    /// finds the model current. One transfer, one installed copy.
    @Test func concurrentDownloadsOfOneModelTransferOnce() async throws {
        let site = try await heldSite()
        let first = try startDownload(site)
        #expect(await Waiting.poll(safetyNet: 120) { site.server.requestCount("/flowers.zip") == 1 })
        let second = try startDownload(site)
        // Waiting says so; a download that does not wait requests the bundle a second time.
        #expect(
            await Waiting.poll(safetyNet: 120) {
                second.stderrSoFar.contains("waiting") || site.server.requestCount("/flowers.zip") == 2
            })
        try site.server.release()
        let firstRun = try await first.finish(within: 300)
        let secondRun = try await second.finish(within: 300)
        #expect(firstRun.status == 0 && firstRun.diagnostics == ["downloaded flowers version 1"], "\(firstRun)")
        #expect(secondRun.status == 0, "\(secondRun)")
        #expect(
            secondRun.diagnostics == [
                "flowers: another process is downloading it into \(site.cache.path); waiting for it to finish",
                "flowers version 1 is already installed and current: nothing downloaded",
            ], "\(secondRun)")
        #expect(site.server.requestCount("/flowers.zip") == 1)
        #expect(entries(site, prefix: "v").count == 1, "installed copies: \(entries(site, prefix: "v"))")
        #expect(entries(site, prefix: ".") == [])
    }

    /// A download killed with SIGKILL leaves its staging folder; the next `models` command removes
    /// it, but leaves alone the staging folder of a download still running.
    @Test func killedDownloadsStagingIsRemovedByTheNextCommand() async throws {
        let site = try await heldSite()
        let list = ["models", "list", "--cache", site.cache.path]
        let download = try startDownload(site)
        #expect(await Waiting.poll(safetyNet: 120) { partialBundleArrived(site) })
        let during = try await VisionTasksTool.run(list)
        #expect(during.status == 0, "\(during)")
        #expect(partialBundleArrived(site), "the running download's staging folder was removed")

        kill(download.processIdentifier, SIGKILL)
        let killed = try await download.finish(within: 60)
        #expect(killed.reason == .uncaughtSignal, "\(killed)")
        #expect(entries(site, prefix: ".staging-").count == 1)
        let after = try await VisionTasksTool.run(list)
        #expect(after.status == 0, "\(after)")
        #expect(entries(site, prefix: ".staging-") == [])
        try site.server.release()
    }

    /// Ctrl-C during a download removes its staging folder (and the model's folder, which it
    /// created) and exits 130.
    @Test func interruptedDownloadCleansUpAndExits130() async throws {
        let site = try await heldSite()
        let download = try startDownload(site)
        #expect(await Waiting.poll(safetyNet: 120) { partialBundleArrived(site) })
        download.interrupt()
        let outcome = try await download.finish(within: 120)
        #expect(outcome.reason == .exit && outcome.status == 130, "\(outcome)")
        #expect(
            outcome.diagnostics == ["error: CANCELLED: flowers: download failed at step transfer: the download was cancelled"],
            "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: site.cache.appendingPathComponent("flowers").path))
        try site.server.release()
    }

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
