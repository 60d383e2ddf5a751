import Foundation

/// The line that ends a run of classify, label or embed over several images, on stderr (stdout
/// holds only the results): "13 images, 1 failed, 0.3 s, 45.4 images/s". The time runs
/// from the first image to the last, model loading excluded, as on the progress line.
struct BatchSummary {
    /// The images done, failed ones included.
    let images: Int
    let failed: Int
    /// From the first image to the last.
    let elapsed: Duration

    /// The line, without its newline.
    var line: String {
        let seconds = elapsed / .seconds(1)
        return "\(Self.count(images)) images, \(Self.count(failed)) failed, "
            + String(format: "%.1f s, %.1f images/s", seconds, Double(images) / seconds)
    }

    /// `number` with its thousands grouped by commas ("3,409"), whatever the locale, so that
    /// the line reads the same on every machine.
    static func count(_ number: Int) -> String {
        number.formatted(.number.locale(Locale(identifier: "en_US")))
    }
}
