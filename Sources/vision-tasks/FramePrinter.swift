import Foundation
import VisionTasks

/// Prints per-frame results of classify-video and live: one line each.
enum FramePrinter {
    /// A frame in JSON: `{"timestampInMilliseconds", "classifications"}` (classify's shape).
    private struct FrameJSON: Encodable {
        let timestampInMilliseconds: Int
        let classifications: [HeadJSON]
    }

    /// Prints one frame's result: a table line (timestamp, then the first head's categories)
    /// or a JSON line.
    static func print(_ result: ImageClassifierResult, format: OutputFormat) {
        let heads = result.classificationResult.classifications
        guard format == .table else {
            emit(OutcomePrinter.json(FrameJSON(timestampInMilliseconds: result.timestampInMilliseconds,
                                                      classifications: heads.map(HeadJSON.init))))
            return
        }
        let categories = (heads.first?.categories ?? []).map {
            "\($0.index) \($0.displayName ?? $0.categoryName ?? "") \(String(format: "%.5f", $0.score))"
        }
        let time = String(repeating: " ", count: max(0, 8 - String(result.timestampInMilliseconds).count))
            + "\(result.timestampInMilliseconds) ms"
        emit("\(time)  \(categories.isEmpty ? "(no category at or above the score threshold)" : categories.joined(separator: " | "))")
    }

    /// Prints which category came first over which time range.
    static func printSummary(_ spans: [CategorySpans.Span], format: OutputFormat) {
        guard format == .table else {
            emit(OutcomePrinter.json(["summary": spans]))
            return
        }
        emit("Summary (top category over time):")
        for span in spans {
            let name = span.category.isEmpty ? "(none)" : span.category
            emit("  \(span.fromMilliseconds)-\(span.toMilliseconds) ms  \(name)  (\(span.frames) frame\(span.frames == 1 ? "" : "s"))")
        }
    }
}
