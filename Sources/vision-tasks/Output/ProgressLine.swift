import Foundation
import Glibc

/// The progress line of a batch, a video or a fit on stderr: "[##..] 37/300 images, 12.4/s, 21 s left"
/// (without a total for a list read as it arrives), or "12.0/30.0 s of video, 250 frames, 24.9
/// frames/s, 18 s left", redrawn in place at most ten times a second. Shown only when
/// stderr is a terminal and `--no-progress` was not given; never in a pipe or a file.
///
/// Other output must not land on the line: `clear()` erases it before anything is printed, and
/// the next `update` draws it again below.
struct ProgressLine {
    private let enabled: Bool
    private let total: Int?
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var shown = false

    /// - Parameters:
    ///   - total: the number of images, or a video's duration in milliseconds, when known.
    ///   - requested: false for `--no-progress`.
    init(total: Int?, requested: Bool) {
        enabled = requested && isatty(STDERR_FILENO) == 1
        self.total = total
    }

    /// Draws the line for `done` images, unless it was drawn less than 0.1 s ago.
    mutating func update(done: Int) {
        update(done: done, of: total, noun: "images")
    }

    /// Draws the line for `done` of `total` photos (a total known only once the run started).
    mutating func update(done: Int, of total: Int) {
        update(done: done, of: total, noun: "photos")
    }

    private mutating func update(done: Int, of total: Int?, noun: String) {
        guard let seconds = due() else { return }
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = total.map { "\(Self.bar(done: done, of: $0)) \(done)/\($0) \(noun)" } ?? "\(done) \(noun)"
        text += String(format: ", %.1f/s", rate)
        if let total, rate > 0, done < total {
            text += ", \(Self.duration(Double(total - done) / rate)) left"
        }
        draw(text)
    }

    /// Draws the line of a fit after `iteration` iterations, its objective at `loss`.
    mutating func update(iteration: Int, loss: Double) {
        guard let seconds = due() else { return }
        draw(String(format: "fit: iteration %d, loss %.6f, %.1f s", iteration, loss, seconds))
    }

    /// A bar of 20 cells, `done` of `total` filled: "[#######.............]".
    static func bar(done: Int, of total: Int) -> String {
        let filled = total > 0 ? min(20, 20 * done / total) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled) + "]"
    }

    /// Draws the line of a video read up to `milliseconds` of its `total` duration (given at
    /// creation, in milliseconds, when the container knows it), after `frames` classified frames.
    mutating func update(videoMilliseconds milliseconds: Int, frames: Int) {
        guard let seconds = due() else { return }
        let position = Double(milliseconds) / 1000
        var text =
            total.map { String(format: "%.1f/%.1f s of video", position, Double($0) / 1000) }
            ?? String(format: "%.1f s of video", position)
        text += ", \(frames) frames" + (seconds > 0 ? String(format: ", %.1f frames/s", Double(frames) / seconds) : "")
        if let total, milliseconds > 0, milliseconds < total {
            text += ", \(Self.duration(seconds * Double(total - milliseconds) / Double(milliseconds))) left"
        }
        draw(text)
    }

    /// The seconds since the start when the line is enabled and due for a redraw, else nil.
    private mutating func due() -> Double? {
        guard enabled else { return nil }
        let now = ContinuousClock.now
        if shown, let lastDraw, now - lastDraw < .milliseconds(100) { return nil }
        lastDraw = now
        let elapsed = now - start
        return elapsed / .seconds(1)
    }

    private mutating func draw(_ text: String) {
        write("\r\u{1B}[K" + text)
        shown = true
    }

    /// Erases the line (before other output, and at the end).
    mutating func clear() {
        guard shown else { return }
        write("\r\u{1B}[K")
        shown = false
    }

    /// "42 s", "3 min 5 s", "1 h 2 min".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }

    private func write(_ text: String) {
        StandardStreams.writeError(Data(text.utf8))
    }
}
