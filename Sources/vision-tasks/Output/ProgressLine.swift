import Foundation
import Glibc

/// The progress line of a batch on stderr: "37/300 images, 12.4/s, 21 s left" (without a total
/// for a list read as it arrives), redrawn in place at most ten times a second. Shown only when
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
    ///   - total: the number of images, when known in advance.
    ///   - requested: false for `--no-progress`.
    init(total: Int?, requested: Bool) {
        enabled = requested && isatty(STDERR_FILENO) == 1
        self.total = total
    }

    /// Draws the line for `done` images, unless it was drawn less than 0.1 s ago.
    mutating func update(done: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        if shown, let lastDraw, now - lastDraw < .milliseconds(100) { return }
        lastDraw = now
        let seconds = Double((now - start).components.attoseconds) / 1e18 + Double((now - start).components.seconds)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var text = total.map { "\(done)/\($0) images" } ?? "\(done) images"
        text += String(format: ", %.1f/s", rate)
        if let total, rate > 0, done < total {
            text += ", \(Self.duration(Double(total - done) / rate)) left"
        }
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
        FileHandle.standardError.write(Data(text.utf8))
    }
}
