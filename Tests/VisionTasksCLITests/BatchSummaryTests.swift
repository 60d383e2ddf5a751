import Foundation
import TestSupport
import Testing

/// A run of classify, label or embed over several images (arguments, folders, `--files-from`)
/// ends with one summary line on stderr: "3,409 images, 2 failed, 41.2 s, 82.7 images/s". A
/// single image has none, and stdout holds only the results.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct BatchSummaryTests {
    static let photos = TestData.image("burger.jpg").deletingLastPathComponent().path

    /// A closed stderr loses the summary (and any warning) but not the run.
    @Test(arguments: ["2>&-", "2>/dev/full"])
    func unwritableStandardErrorIsNotFatal(redirection: String) async throws {
        let tool = try #require(VisionTasksTool.executable, "the vision-tasks executable was not built")
        let command =
            "'\(tool.path)' classify --model '\(Fixture.quantModel)' --format jsonl '\(Fixture.burger)' "
            + "'\(Fixture.image("cat.jpg"))' \(redirection)"
        let run = try await ExternalProgram.run("/bin/sh", ["-c", command])
        #expect(run.status == 0, "\(run)")
        #expect(run.text.split(separator: "\n").count == 2, "both records: \(run.text)")
    }

    /// The folder of the 12 shared photos and a missing file, in each command and format.
    @Test(arguments: [
        ["classify", "--model", Fixture.quantModel],
        ["classify", "--model", Fixture.quantModel, "--format", "jsonl"],
        ["label", "--model", Fixture.quantModel, "--format", "csv"],
        ["embed", "--model", EmbedCommandTests.embedder, "--format", "json"],
    ])
    func folderAndMissingFile(command: [String]) async throws {
        let run = try await VisionTasksTool.run(command + [Self.photos, "/nonexistent/missing.jpg"])
        #expect(run.status == 1, "the missing file: \(run)")
        let stderr = run.stderr.split(separator: "\n")
        let errorLines = command.contains { $0.hasPrefix("json") } ? 0 : 1
        #expect(stderr.count == errorLines + 1, "the missing file's error line (table and csv), the summary: \(run)")
        let summary = try #require(stderr.last.map(String.init), "\(run)")
        #expect(VisionTasksTool.isBatchSummary(summary), "\(run)")
        #expect(summary.hasPrefix("\(LabelReference.images.count + 1) images, 1 failed, "), "\(run)")
        #expect(!run.stdout.contains(" images/s"), "stdout holds only results: \(run)")
    }

    /// Counts are grouped by thousands: a list of 1,000 missing files (fast to fail).
    @Test func thousandsAreGrouped() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("list")
        try Data((0..<1000).map { "/nonexistent/\($0).jpg\n" }.joined().utf8).write(to: list)
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--files-from", list.path])
        #expect(run.status == 0, "failed images leave the status 0 with --files-from: \(run)")
        #expect(run.stdoutLines.count == 1000, "\(run)")
        #expect(run.batchSummaryCounts == "1,000 images, 1,000 failed", "\(run)")
        #expect(run.diagnostics.isEmpty, "the summary is the only stderr line: \(run)")
    }

    /// One image, from the arguments or a list: no summary, nothing on stderr.
    @Test(arguments: [false, true])
    func singleImageHasNoSummary(fromList: Bool) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("list")
        try Data((Fixture.burger + "\n").utf8).write(to: list)
        let images = fromList ? ["--files-from", list.path] : [Fixture.burger]
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel] + images)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
    }
}
