import Foundation
import ImageTasks
import Imaging
import TasksCommon
import VideoTasks
import VisionTasks

/// The HTML report of classify-video (`--report FILE.html`): a card per span of frames with
/// the same top category (the first frame's thumbnail and categories), written when the span
/// starts; cards for frames that failed; at the end a timeline of the top category over time
/// (inline SVG: a coloured, labelled band per span), the spans as a table and the frames per
/// second.
///
/// Spans are those of the text summary (`CategorySpans`: the first head's top category; a
/// failed frame neither ends nor extends a span).
final class VideoReport {
    /// The most failed frames that get a card; later ones are only counted.
    static let maximumErrorCards = 20

    private let file: ReportFile
    private let orientation: ImageOrientation?
    private let started = ContinuousClock.now
    private var spans = CategorySpans()
    private var colors = ReportPage.CategoryColors()
    private var frames = 0
    private var failures = 0

    /// Whether writing the report failed (reported on stderr).
    var failed: Bool { file.failed }

    /// Creates the report file and writes the page's start.
    /// - Parameters:
    ///   - path: The report's path.
    ///   - video: The video's path or URL.
    ///   - settings: The model and options in effect.
    ///   - orientation: The orientation that replaces the video's own, if any (`--rotation`).
    /// - Throws: `TasksError` when the file cannot be created.
    init(path: String, video: String, settings: [ReportPage.Setting], orientation: ImageOrientation?) throws(TasksError) {
        file = try ReportFile(path: path)
        self.orientation = orientation
        file.write(ReportPage.start(title: "vision-tasks classify-video", subject: video, settings: settings))
    }

    /// Adds a classified frame, or the error for a frame (a result with a non-finite score is
    /// one); writes a card when the frame starts a span or failed.
    func add(_ outcome: Result<ImageClassifierResult, TasksError>, image: MPImage, timestamp: Int) {
        frames += 1
        let failure: TasksError
        switch outcome {
        case .success(let result):
            if let error = ClassificationOutput(heads: result.classificationResult.classifications).failure {
                failure = error
            } else {
                let before = spans.spans.count
                spans.add(result)
                if spans.spans.count > before, let span = spans.spans.last {
                    writeSpanCard(span, number: spans.spans.count, result: result, image: image)
                }
                return
            }
        case .failure(let error):
            failure = error
        }
        failures += 1
        guard failures <= Self.maximumErrorCards else { return }
        file.write(
            "<article class=\"entry failed frame-error\" data-timestamp=\"\(timestamp)\">"
                + "<div class=\"body\"><h2>Frame at \(ReportPage.seconds(timestamp))</h2>"
                + ReportPage.error(failure, what: "Not classified") + "</div></article>\n")
    }

    /// Writes the timeline, the spans, the counts and the end of the page.
    func finish() {
        let elapsed = started.duration(to: .now)
        let seconds = elapsed / .seconds(1)
        let rate = seconds > 0 ? Double(frames) / seconds : 0
        let list = spans.spans
        let classified = frames - failures
        let failed =
            failures > 0
            ? " · <b>\(failures)</b> failed"
                + (failures > Self.maximumErrorCards ? " (the first \(Self.maximumErrorCards) are shown)" : "")
            : ""
        let rows = list.enumerated().map { number, span in
            "<tr><td>\(number + 1)</td><td><span class=\"chip\" style=\"--c:\(colors.color(for: span.category))\"></span>"
                + "\(HTMLText.shown(Self.label(span)))</td><td>\(ReportPage.seconds(span.fromMilliseconds)) – "
                + "\(ReportPage.seconds(span.toMilliseconds))</td><td>\(span.frames)</td></tr>"
        }.joined()
        file.write(
            """
            <section class="summary timeline" id="summary">
            <h2>Top category over time</h2>
            <p class="stats"><b>\(frames)</b> \(frames == 1 ? "frame" : "frames") · <b>\(classified)</b> classified\(failed) · \
            <b>\(list.count)</b> \(list.count == 1 ? "span" : "spans") · \(String(format: "%.1f", seconds)) s · \
            <b>\(String(format: "%.1f", rate))</b> frames/s</p>
            \(Self.timeline(list, colors: &colors))
            \(list.isEmpty ? "<p class=\"none\">No frame was classified.</p>" : """
            <table class="spans"><thead><tr><th>#</th><th>top category</th><th>from – to (first and last frame)</th>\
            <th>frames</th></tr></thead><tbody>\(rows)</tbody></table>
            """)
            </section>

            """ + ReportPage.end)
    }

    /// The card of a span that starts with this frame.
    private func writeSpanCard(_ span: CategorySpans.Span, number: Int, result: ImageClassifierResult, image: MPImage) {
        let thumbnail = try? Thumbnail(image.pixels, orientation: orientation ?? image.orientation)
        let categories = result.classificationResult.classifications.first?.categories ?? []
        let bars = categories.map { ReportPage.Bar(name: ImageReport.name($0), score: $0.score, index: $0.index) }
        file.write(
            "<article class=\"entry span-entry\" id=\"span-\(number)\" data-category=\"\(HTMLText.escaped(span.category))\" "
                + "data-from=\"\(span.fromMilliseconds)\">\(ReportPage.picture(thumbnail))<div class=\"body\">"
                + "<h2><span class=\"chip\" style=\"--c:\(colors.color(for: span.category))\"></span>\(HTMLText.shown(Self.label(span)))</h2>"
                + "<p class=\"when\">from \(ReportPage.seconds(span.fromMilliseconds)) (span \(number))</p>"
                + ReportPage.bars(bars, empty: "No category at or above the score threshold.") + "</div></article>\n")
    }

    /// A span's name as shown: its category, or "(no category)".
    private static func label(_ span: CategorySpans.Span) -> String {
        span.category.isEmpty ? "(no category)" : span.category
    }

    /// The timeline: a band per span from its first frame to the next span's first frame (the
    /// last one to its last frame plus the mean frame interval), labelled when wide enough, with
    /// a tooltip; ticks in seconds below.
    static func timeline(_ spans: [CategorySpans.Span], colors: inout ReportPage.CategoryColors) -> String {
        guard let first = spans.first, let last = spans.last else { return "" }
        let frameCount = spans.reduce(0) { $0 + $1.frames }
        let interval = frameCount > 1 ? Double(last.toMilliseconds - first.fromMilliseconds) / Double(frameCount - 1) : 100
        let start = Double(first.fromMilliseconds)
        let end = max(Double(last.toMilliseconds) + max(interval, 1), start + 1)
        let width = 1000.0, bandTop = 4.0, bandHeight = 40.0
        func x(_ time: Double) -> Double { (time - start) / (end - start) * width }
        var parts: [String] = []
        for (number, span) in spans.enumerated() {
            let from = x(Double(span.fromMilliseconds))
            let to = number + 1 < spans.count ? x(Double(spans[number + 1].fromMilliseconds)) : width
            let name = label(span)
            let tooltip =
                "\(name): \(ReportPage.seconds(span.fromMilliseconds)) – \(ReportPage.seconds(span.toMilliseconds)), "
                + ReportPage.count(span.frames, "frame")
            parts.append(
                "<g class=\"span-band\"><title>\(HTMLText.shown(tooltip))</title><rect class=\"span\" "
                    + String(
                        format: "x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%.0f\"", from, bandTop, max(to - from, 0.5),
                        bandHeight)
                    + " fill=\"\(colors.color(for: span.category))\" stroke=\"#fff\" stroke-width=\"1\" "
                    + "data-category=\"\(HTMLText.escaped(span.category))\" data-from=\"\(span.fromMilliseconds)\" "
                    + "data-to=\"\(span.toMilliseconds)\" data-frames=\"\(span.frames)\"/>")
            // About 7.5 units per character at 13 px: label the bands that can hold their name.
            let shown = name.count > 28 ? String(name.prefix(27)) + "…" : name
            if to - from > Double(shown.count) * 7.5 + 12 {
                parts.append(
                    String(format: "<text x=\"%.2f\" y=\"%.0f\" fill=\"#10151f\">", from + 6, bandTop + 25)
                        + "\(HTMLText.shown(shown))</text>")
            }
            parts.append("</g>")
        }
        // Ticks: about 8 of them, at a round number of seconds.
        let totalSeconds = (end - start) / 1000
        let step = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600].first { totalSeconds / $0 <= 10 } ?? 7200
        var tick = (start / 1000 / step).rounded(.up) * step
        while tick * 1000 <= end {
            let position = x(tick * 1000)
            parts.append(
                String(
                    format: "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"#98a2b3\"/>",
                    position, position, bandTop + bandHeight, bandTop + bandHeight + 6))
            let anchor = position < 20 ? "start" : position > width - 20 ? "end" : "middle"
            parts.append(
                String(format: "<text x=\"%.2f\" y=\"%.0f\" ", position, bandTop + bandHeight + 22)
                    + "text-anchor=\"\(anchor)\" fill=\"#5f6b7a\">\(Self.tickLabel(tick, step: step))</text>")
            tick += step
        }
        return "<svg class=\"timeline-plot\" viewBox=\"0 0 \(Int(width)) \(Int(bandTop + bandHeight + 30))\" role=\"img\" "
            + "aria-label=\"Top category over time\">\(parts.joined())</svg>"
    }

    /// A tick's label: "1.5 s", "12 s", "2:30".
    private static func tickLabel(_ seconds: Double, step: Double) -> String {
        if step >= 60 { return String(format: "%d:%02d", Int(seconds) / 60, Int(seconds) % 60) }
        return step < 1 ? String(format: "%.1f s", seconds) : String(format: "%.0f s", seconds)
    }
}
