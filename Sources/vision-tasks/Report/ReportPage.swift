import Foundation
import Imaging
import TasksCommon

/// The pieces of the HTML report every command's report is made of: the page head and its
/// style, the run's header, entries with a thumbnail and bars, errors in words.
///
/// The page is one self-contained file (no script, no external resource: thumbnails are
/// `data:` URIs) written as the run goes: the head and header first, then one complete block
/// per image or span, then a closing summary. Browsers render it at every step, so a run cut
/// short leaves a readable page; the body is a grid whose header and summary are ordered
/// first (`order`), so the summary written last shows at the top. Everything that comes from a
/// file or a model passes through `HTMLText`.
enum ReportPage {
    /// One row of the header's settings list: the model and each option in effect.
    struct Setting {
        let name: String
        let value: String
    }

    /// One bar: a category or label with its score, drawn as a bar of `score` (clamped to
    /// [0, 1]) behind the name.
    struct Bar {
        let name: String
        let score: Float
        /// The category's index in the model's output.
        let index: Int
    }

    /// The document's start, its style and the run's header.
    /// - Parameters:
    ///   - title: What ran ("vision-tasks classify").
    ///   - subject: What the report is about ("12 images", a video's name).
    ///   - settings: The model and options in effect.
    static func start(title: String, subject: String, settings: [Setting]) -> String {
        let rows = settings.map { "<div><dt>\(HTMLText.escaped($0.name))</dt><dd>\(HTMLText.shown($0.value))</dd></div>" }
            .joined()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="vision-tasks">
            <title>\(HTMLText.escaped(title)): \(HTMLText.shown(subject))</title>
            <style>\(style)</style>
            </head>
            <body>
            <header class="run">
            <h1>\(HTMLText.escaped(title))</h1>
            <p class="subject">\(HTMLText.shown(subject))</p>
            <p class="started">Started \(HTMLText.escaped(timestamp()))</p>
            <dl class="settings">\(rows)</dl>
            </header>
            <p class="pending">The run is still going, or was cut short: the summary is written when it ends.</p>

            """
    }

    /// The end of the document, after the summary.
    static let end = "</body>\n</html>\n"

    /// The thumbnail as an `<img>` with a `data:` URI, or a placeholder when there is none.
    static func picture(_ thumbnail: Thumbnail?) -> String {
        guard let thumbnail else { return "<div class=\"picture empty\"><span>no preview</span></div>" }
        let base64 = Data(thumbnail.webp).base64EncodedString()
        return "<div class=\"picture\"><img src=\"data:image/webp;base64,\(base64)\" width=\"\(thumbnail.width)\" "
            + "height=\"\(thumbnail.height)\" alt=\"\"></div>"
    }

    /// The bars of one list of categories or labels, best first; `empty` when there are none.
    static func bars(_ bars: [Bar], empty: String) -> String {
        guard !bars.isEmpty else { return "<p class=\"none\">\(HTMLText.escaped(empty))</p>" }
        let items = bars.map { bar in
            "<li class=\"bar\" style=\"--w:\(percent(bar.score))\" data-index=\"\(bar.index)\" data-score=\"\(bar.score)\">"
                + "<span class=\"name\" title=\"\(HTMLText.shown(bar.name)) (index \(bar.index))\">\(HTMLText.shown(bar.name))</span>"
                + "<span class=\"score\">\(String(format: "%.3f", bar.score))</span></li>"
        }
        return "<ol class=\"bars\">\(items.joined())</ol>"
    }

    /// An error in words: what kind of failure, then the message (its subject abbreviated).
    static func error(_ error: TasksError, what: String) -> String {
        "<div class=\"error\"><strong>\(HTMLText.escaped(what)): \(HTMLText.escaped(words(error.code)))</strong>"
            + "<p>\(HTMLText.shown(ErrorText.message(error)))</p><code>\(error.code.statusName)</code></div>"
    }

    /// A short description of an error code for people.
    static func words(_ code: TasksErrorCode) -> String {
        switch code {
        case .notFoundError: "file not found"
        case .permissionDeniedError: "permission denied"
        case .invalidArgumentError: "the input is not valid"
        case .outOfRangeError: "the scores are out of range"
        case .resourceExhaustedError: "too large"
        case .unimplementedError: "not supported"
        case .failedPreconditionError: "not possible in this state"
        case .deadlineExceededError: "timed out"
        case .dataLossError: "the data is damaged"
        case .unavailableError: "not available"
        case .internalError: "internal error"
        default: code.statusName.lowercased().replacingOccurrences(of: "_", with: " ")
        }
    }

    /// Colours for categories: distinct light tints (dark text stays readable on them) in the
    /// order categories first appear, then hues from the name's hash; the same name keeps its
    /// colour within a report.
    struct CategoryColors {
        static let palette = [
            "#8db7f2", "#f5b971", "#95d5a2", "#f09c9c", "#c4a7ea", "#f2d46b", "#8ed4d8", "#f2a8cf", "#bcc98a",
            "#cdb59c",
        ]
        private var assigned: [String: String] = [:]

        /// The colour of `name` (grey for "", no category).
        mutating func color(for name: String) -> String {
            guard !name.isEmpty else { return "#c8ccd2" }
            if let color = assigned[name] { return color }
            let color = assigned.count < Self.palette.count ? Self.palette[assigned.count] : Self.hashed(name)
            assigned[name] = color
            return color
        }

        /// A light tint whose hue comes from the name (FNV-1a).
        private static func hashed(_ name: String) -> String {
            var hash: UInt32 = 2_166_136_261
            for byte in name.utf8 {
                hash = (hash ^ UInt32(byte)) &* 16_777_619
            }
            return "hsl(\(hash % 360), 65%, 74%)"
        }
    }

    /// `value` (clamped to [0, 1]) as a CSS percentage.
    static func percent(_ value: Float) -> String {
        let clamped = value.isFinite ? min(max(value, 0), 1) : 0
        return String(format: "%.1f%%", clamped * 100)
    }

    /// Milliseconds as seconds with one decimal: "12.3 s".
    static func seconds(_ milliseconds: Int) -> String {
        String(format: "%.1f s", Double(milliseconds) / 1000)
    }

    /// A count with its noun, plural when needed: "1 image", "3 images".
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The local date and time, for the header.
    private static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss ZZZZZ"
        return formatter.string(from: Date())
    }

    /// The page's style: cards in a grid, bars behind the names, the summary ordered first.
    static let style = """

        :root { --bg: #f4f5f7; --card: #fff; --ink: #1c2230; --muted: #5f6b7a; --line: #dde1e7;
          --fill: #d5e3fb; --fill-top: #9dbcf5; --track: #f0f2f5; --bad: #b42318; --bad-bg: #fff4f2; }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 24px; background: var(--bg); color: var(--ink);
          font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
          display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: 16px; align-items: start; }
        body > header, body > .summary, body > .pending { grid-column: 1 / -1; }
        body > header { order: -3; }
        body > .summary { order: -2; }
        body > .pending { order: -1; }
        body:has(> .summary) > .pending { display: none; }
        h1 { font-size: 22px; margin: 0; }
        h2 { font-size: 15px; margin: 0 0 8px; }
        h3 { font-size: 12px; margin: 10px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        .run .subject { margin: 2px 0 0; font-size: 15px; word-break: break-all; }
        .run .started { margin: 2px 0 10px; color: var(--muted); }
        .settings { display: flex; flex-wrap: wrap; gap: 6px 22px; margin: 0; padding: 10px 14px;
          background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
        .settings div { display: flex; gap: 6px; align-items: baseline; min-width: 0; }
        .settings dt { color: var(--muted); white-space: nowrap; }
        .settings dt::after { content: ":"; }
        .settings dd { margin: 0; word-break: break-all; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
        .pending { margin: 0; padding: 8px 14px; border-radius: 8px; background: #fff8e1; border: 1px solid #f1d48a; }
        .summary { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; }
        .summary .stats { margin: 0 0 6px; font-size: 15px; }
        .summary .stats b { font-variant-numeric: tabular-nums; }
        .summary .bars { max-width: 640px; }
        .entry { background: var(--card); border: 1px solid var(--line); border-radius: 10px; overflow: hidden;
          box-shadow: 0 1px 2px rgba(16, 24, 40, .05); }
        .entry.failed { border-color: #f3b4ab; }
        .picture { height: 190px; display: flex; align-items: center; justify-content: center; background: #e9ecf0; }
        .picture img { display: block; max-width: 100%; max-height: 190px; width: auto; height: auto; }
        .picture.empty span { color: var(--muted); font-size: 13px; }
        .entry .body { padding: 10px 12px 12px; }
        .entry h2 { font-size: 14px; word-break: break-all; }
        .entry h2 .folder { display: block; font-weight: 400; font-size: 12px; color: var(--muted); }
        .when { margin: -4px 0 8px; color: var(--muted); font-variant-numeric: tabular-nums; }
        .bars { list-style: none; margin: 0; padding: 0; display: grid; gap: 3px; }
        .bar { display: grid; grid-template-columns: 1fr auto; gap: 10px; padding: 2px 8px; border-radius: 4px;
          background: linear-gradient(to right, var(--fill) var(--w), var(--track) var(--w)); }
        .bar:first-child { --fill: var(--fill-top); font-weight: 600; }
        .bar .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .bar .score { font-variant-numeric: tabular-nums; color: #344054; }
        .none { margin: 0; color: var(--muted); font-style: italic; }
        .error { background: var(--bad-bg); color: var(--bad); border-radius: 6px; padding: 8px 10px; }
        .error p { margin: 4px 0; color: var(--ink); word-break: break-word; }
        .error code { font-size: 11px; color: var(--muted); }
        .chip { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin-right: 6px; vertical-align: -1px;
          box-shadow: inset 0 0 0 1px rgba(16, 24, 40, .25);
          background: var(--c); }
        .timeline svg { display: block; width: 100%; height: auto; margin: 6px 0 10px; }
        .timeline svg text { font: 13px system-ui, "DejaVu Sans", sans-serif; }
        .spans { border-collapse: collapse; font-variant-numeric: tabular-nums; }
        .spans th, .spans td { text-align: left; padding: 3px 14px 3px 0; border-bottom: 1px solid var(--line); }
        .spans th { color: var(--muted); font-weight: 500; }
        .confusion td { text-align: center; min-width: 3.5em; padding: 3px 8px; }

        """
}
