import ImageTasks
import Imaging
import TasksCommon
import VisionTasks

/// The HTML report of classify, label and embed (`--report FILE.html`): a card per image with its
/// thumbnail and its categories (or labels) as bars, or the error in words; at the end a
/// summary with the counts per top category and the images per second.
///
/// Each card is written as soon as its image is done (`ReportFile`). Thumbnails are made by
/// decoding the file again (only when a report is asked for), upright as the image was
/// classified: by `orientation` when given (`--rotation`), else by the file's EXIF orientation.
final class ImageReport {
    private let file: ReportFile
    private let orientation: ImageOrientation?
    private let started = ContinuousClock.now
    private var images = 0
    private var failures = 0
    /// How many images had each top category, in order of first appearance.
    private var topCounts: [(name: String, count: Int)] = []

    /// Whether writing the report failed (reported on stderr).
    var failed: Bool { file.failed }

    /// Creates the report file and writes the page's start.
    /// - Parameters:
    ///   - path: The report's path.
    ///   - command: The command's name ("classify", "label").
    ///   - imageCount: How many images will be added.
    ///   - settings: The model and options in effect.
    ///   - orientation: The orientation that replaces the files' own, if any.
    /// - Throws: `TasksError` when the file cannot be created.
    init(
        path: String, command: String, imageCount: Int, settings: [ReportPage.Setting],
        orientation: ImageOrientation? = nil
    ) throws(TasksError) {
        file = try ReportFile(path: path)
        self.orientation = orientation
        file.write(
            ReportPage.start(
                title: "vision-tasks \(command)", subject: ReportPage.count(imageCount, "image"),
                settings: settings))
    }

    /// Writes one image's card.
    func add<Output: PrintableOutput>(_ outcome: ImageOutcome<Output>) {
        images += 1
        let path = outcome.path.description
        let body: String
        switch outcome.result {
        case .success(let output):
            let card = output.reportCard
            count(top: card.summaryName)
            body = card.body
        case .failure(let error):
            failures += 1
            body = ReportPage.error(error, what: "Failed")
        }
        let (folder, name) = Self.split(path)
        let folderLine = folder.isEmpty ? "" : "<span class=\"folder\">\(HTMLText.shown(folder))</span>"
        file.write(
            "<article class=\"entry\(outcome.failed ? " failed" : "")\" id=\"image-\(images)\" "
                + "data-image=\"\(HTMLText.escaped(path))\">\(ReportPage.picture(thumbnail(outcome.path)))"
                + "<div class=\"body\"><h2 title=\"\(HTMLText.shown(path))\">\(HTMLText.shown(name))\(folderLine)</h2>\(body)</div></article>\n"
        )
    }

    /// Writes the summary and the end of the page.
    func finish() {
        let elapsed = started.duration(to: .now)
        let seconds = elapsed / .seconds(1)
        let rate = seconds > 0 ? Double(images) / seconds : 0
        let most = topCounts.map(\.count).max() ?? 1
        let sorted = topCounts.enumerated().sorted { ($0.element.count, -$0.offset) > ($1.element.count, -$1.offset) }
        var colors = ReportPage.CategoryColors()
        let rows = sorted.map { _, entry in
            "<li class=\"bar\" style=\"--w:\(ReportPage.percent(Float(entry.count) / Float(most)))\">"
                + "<span class=\"name\"><span class=\"chip\" style=\"--c:\(colors.color(for: entry.name))\"></span>"
                + "\(HTMLText.shown(entry.name))</span><span class=\"score\">\(entry.count)</span></li>"
        }.joined()
        let failed = failures > 0 ? " · <b>\(failures)</b> failed" : ""
        file.write(
            """
            <section class="summary" id="summary">
            <h2>Summary</h2>
            <p class="stats"><b>\(images)</b> \(images == 1 ? "image" : "images") · <b>\(images - failures)</b> done\(failed) · \
            \(String(format: "%.1f", seconds)) s · <b>\(String(format: "%.2f", rate))</b> images/s</p>
            <h3>Top category (images)</h3>
            \(rows.isEmpty ? "<p class=\"none\">No image was classified.</p>" : "<ol class=\"bars counts\">\(rows)</ol>")
            </section>

            """ + ReportPage.end)
    }

    /// The name a bar shows for a category: its display name, else its name, else its index.
    static func name(_ category: ResultCategory) -> String {
        category.displayName ?? category.categoryName ?? "#\(category.index)"
    }

    /// A path's folder (with its final slash) and file name.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    private func count(top name: String) {
        if let index = topCounts.firstIndex(where: { $0.name == name }) {
            topCounts[index].count += 1
        } else {
            topCounts.append((name, 1))
        }
    }

    /// The image's thumbnail, or nil when it cannot be decoded.
    private func thumbnail(_ path: FileSystemPath) -> Thumbnail? {
        guard let decoded = try? ImageDecoder.decode(file: path) else { return nil }
        return try? Thumbnail(decoded.pixels, orientation: orientation ?? decoded.exifOrientation)
    }
}
