import Foundation
import TestSupport
import Testing

/// `--report FILE.html`: the reports of classify, label and classify-video opened in headless
/// Chromium; the DOM it builds is checked (`ReportDOM`) and screenshots are kept in
/// `.build/artifacts` (scripts/test-report installs Chromium and runs these tests).
@Suite("HTML report", .enabled(if: HeadlessChromium.isAvailable, HeadlessChromium.missingReason))
struct ReportTests {
    /// The shared photos, in the order the folder walk gives them.
    static let photos = TestData.url("images")

    /// Every shared photo has a card with its thumbnail and the bars of its JSON categories
    /// (burger.jpg's first bar is cheeseburger); the summary counts the top categories; nothing
    /// refers outside the file. The screenshot is `.build/artifacts/report-photos.png`.
    @Test func photosReportOpensInChromium() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("photos.html")
        let run = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--format", "json", "--report",
            report.path, Self.photos.path,
        ])
        #expect(run.status == 0, "\(run)")
        let outcomes = try run.jsonOutcomes()
        try #require(outcomes.count == 12, "\(run)")

        let dom = try await ReportDOM.parse(try await HeadlessChromium.dumpDOM(report))
        #expect(dom.entries.map(\.image) == outcomes.map(\.image), "one card per image, in order")
        for (entry, outcome) in zip(dom.entries, outcomes) {
            #expect(
                entry.bars.map(\.name) == outcome.categories.map { $0.displayName ?? $0.categoryName ?? "" }, "\(outcome.image)")
            #expect(entry.bars.map(\.score) == outcome.categories.map(\.score), "\(outcome.image)")
            #expect(entry.bars.map(\.index) == outcome.categories.map(\.index), "\(outcome.image)")
            #expect(entry.thumbnails.count == 1, "\(outcome.image)")
            #expect(
                entry.thumbnails.allSatisfy { $0 > 500 && $0 <= 20_000 },
                "thumbnail bytes \(entry.thumbnails) for \(outcome.image)")
        }
        let burger = try #require(dom.entries.first { $0.image?.hasSuffix("/burger.jpg") == true })
        #expect(burger.bars.first?.name == "cheeseburger")
        #expect(burger.heading.hasPrefix("burger.jpg"), "\(burger.heading)")

        #expect(dom.summary)
        var expectedCounts: [String: Int] = [:]
        for outcome in outcomes { expectedCounts[outcome.categories.first?.categoryName ?? "", default: 0] += 1 }
        #expect(dom.counts == expectedCounts)
        #expect(dom.scripts == 0 && dom.handlers.isEmpty && dom.externalReferences.isEmpty, "\(dom.externalReferences)")
        #expect(dom.title == "vision-tasks classify: 12 images")
        let size = try Data(contentsOf: report).count
        #expect(size < 12 * 24_000, "the report is \(size) bytes")

        try await HeadlessChromium.screenshot(report, name: "report-photos.png", height: 2000)
    }

    /// A report whose run was cut short (here: the file cut before its summary, and cut in
    /// the middle of a card) still opens, with every complete card.
    @Test func reportWithoutItsEndStillRenders() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("full.html")
        let images = [Fixture.burger, Fixture.sparrowPNG, Fixture.multiObjects]
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--report", report.path] + images)
        #expect(run.status == 0, "\(run)")
        let text = try String(contentsOf: report, encoding: .utf8)
        let summary = try #require(text.range(of: "<section class=\"summary\""), "no summary in the report")
        let lastCard = try #require(text.range(of: "<article", options: .backwards))

        for (name, kept, cards) in [
            ("before the summary", text[..<summary.lowerBound], 3),
            ("inside the last card", text[..<text.index(lastCard.lowerBound, offsetBy: 200)], 2),
        ] {
            let cut = directory.appendingPathComponent("cut.html")
            try Data(kept.utf8).write(to: cut)
            let dom = try await ReportDOM.parse(try await HeadlessChromium.dumpDOM(cut))
            #expect(!dom.summary, "\(name)")
            #expect(dom.entries.filter { !$0.bars.isEmpty }.map(\.image) == Array(images.prefix(cards)), "\(name)")
        }
    }

    /// File names and labels that hold markup are shown as text: the DOM has no script, no
    /// event handler and no other image; names read back exactly.
    @Test func namesFromFilesAndModelsAreEscaped() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = directory.appendingPathComponent(
            #"x"><script>document.title='pwned'<script>'&lt;b&gt;<img src=y onerror=alert(1)>.jpg"#)
        try FileManager.default.copyItem(atPath: Fixture.burger, toPath: hostile.path)
        let labels = [
            #"<img src=z onerror=alert(2)>"#, #"dandelion" onmouseover="alert(3)"#, "<script>alert(4)</script>",
            "sunflowers & <b>tulips</b> &amp;", "tulips'",
        ]
        let export = try AutoMLExportFolder(labels: labels)

        for (command, arguments) in [
            ("classify", ["--model", Fixture.quantModel]),
            ("label", ["--manifest", export.manifestPath, "--confidence", "0"]),
        ] {
            let report = directory.appendingPathComponent("\(command).html")
            let run = try await VisionTasksTool.run(
                [command] + arguments + ["--format", "json", "--report", report.path, hostile.path])
            #expect(run.status == 0, "\(run)")
            let dom = try await ReportDOM.parse(try await HeadlessChromium.dumpDOM(report))
            #expect(dom.scripts == 0, "\(command)")
            #expect(dom.handlers.isEmpty, "\(command): \(dom.handlers)")
            #expect(dom.externalReferences.isEmpty, "\(command): \(dom.externalReferences)")
            #expect(dom.title == "vision-tasks \(command): 1 image")
            #expect(dom.entries.map(\.image) == [hostile.path], "\(command)")
            #expect(dom.entries.first?.heading.hasPrefix(hostile.lastPathComponent) == true, "\(command): \(dom.entries)")
            if command == "label" {
                let outcome = try #require(try run.jsonOutcomes().first)
                #expect(dom.entries.first?.bars.map(\.name) == outcome.labels?.map(\.text))
                #expect(Set(dom.entries.first?.bars.map(\.name) ?? []) == Set(labels))
            }
        }
    }

    /// A burger-then-sparrow clip: one band per change of top category (the summary's spans),
    /// and a card with a thumbnail per span. The screenshot is `.build/artifacts/report-video.png`.
    @Test(.enabled(if: VideoClipMaker.canMake, VideoClipMaker.missingReason))
    func videoReportHasOneSpanPerChange() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await VideoClipMaker.burgerThenSparrow(VideoClipMaker.mp4, in: directory)
        let report = directory.appendingPathComponent("clip.html")
        let run = try await VisionTasksTool.run([
            "classify-video", clip.path, "--model", VideoClipMaker.model, "--format", "jsonl",
            "--report", report.path,
        ])
        #expect(run.status == 0, "\(run)")
        let (_, summary) = try VideoOutput.classifyVideo(run.stdoutLines, context: "\(run)")
        #expect(summary.map(\.category) == [VideoClipMaker.burgerName, VideoClipMaker.sparrowName], "\(summary)")

        let dom = try await ReportDOM.parse(try await HeadlessChromium.dumpDOM(report))
        #expect(
            dom.spans
                == summary.map {
                    ReportDOM.Span(
                        category: $0.category, fromMilliseconds: $0.fromMilliseconds, toMilliseconds: $0.toMilliseconds,
                        frames: $0.frames)
                })
        let cards = dom.entries.filter { $0.classes.contains("span-entry") }
        #expect(cards.map(\.category) == summary.map(\.category))
        #expect(cards.map { $0.bars.first?.name } == summary.map(\.category))
        #expect(cards.allSatisfy { $0.thumbnails.count == 1 && $0.thumbnails[0] <= 20_000 }, "\(cards.map(\.thumbnails))")
        #expect(dom.summary && dom.scripts == 0 && dom.handlers.isEmpty && dom.externalReferences.isEmpty)

        try await HeadlessChromium.screenshot(report, name: "report-video.png", height: 900)
    }
}
