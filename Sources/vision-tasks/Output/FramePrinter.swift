import Foundation
import ImageTasks
import TasksCommon
import VideoTasks
import VisionTasks

/// Prints what classify-video and live print: a line per frame, then the summary or the
/// statistics.
///
/// Table: `"     100 ms  934 cheeseburger 0.93750 | ..."` (the first head's categories); an
/// error for a frame goes to stderr as `"100 ms: error: CODE: message"`. jsonl: a
/// `FrameRecord` per frame (errors included), then a `SummaryRecord` or `StatisticsRecord`.
struct FramePrinter: Sendable {
    let format: OutputFormat

    /// Prints one frame's result, or the error for that frame; a result with a non-finite
    /// score is such an error.
    /// - Returns: the result, or nil when the frame failed.
    @discardableResult
    func print(_ outcome: Result<ImageClassifierResult, TasksError>, timestamp: Int) -> ImageClassifierResult? {
        var record = FrameRecord(timestampInMilliseconds: timestamp)
        var classified: ImageClassifierResult?
        var failure: TasksError?
        switch outcome {
        case .success(let result):
            let heads = result.classificationResult.classifications
            failure = ClassificationOutput(heads: heads).failure
            if failure == nil {
                classified = result
                if format == .table { StandardStreams.emit(Self.tableLine(heads, timestamp: timestamp)) }
                record.classifications = heads.map(HeadRecord.init)
            }
        case .failure(let error):
            failure = error
        }
        if let failure {
            if format == .table { StandardStreams.warn("\(timestamp) ms: error: \(ErrorText.describe(failure))") }
            record.error = ErrorRecord(failure)
        }
        if format == .jsonl, !emitJSON(record) { return nil }
        return classified
    }

    /// Prints which category came first over which time range.
    func printSummary(_ spans: [CategorySpans.Span]) {
        guard format == .table else {
            emitJSON(SummaryRecord(summary: spans))
            return
        }
        StandardStreams.emit("Summary (top category over time):")
        for span in spans {
            let name = span.category.isEmpty ? "(none)" : TableText.escaped(span.category)
            StandardStreams.emit(
                "  \(span.fromMilliseconds)-\(span.toMilliseconds) ms  \(name)  "
                    + "(\(span.frames) frame\(span.frames == 1 ? "" : "s"))")
        }
    }

    /// Prints the live-stream counters.
    func printStatistics(_ statistics: LiveStreamStatistics) {
        guard format == .table else {
            emitJSON(
                StatisticsRecord(
                    statistics: .init(
                        framesReceived: statistics.framesReceived, framesProcessed: statistics.framesProcessed,
                        framesDropped: statistics.framesDropped, lastLatencyInMilliseconds: statistics.lastLatencyInMilliseconds))
            )
            return
        }
        let latency = statistics.lastLatencyInMilliseconds.map { String(format: ", last latency %.1f ms", $0) } ?? ""
        StandardStreams.emit(
            "frames received \(statistics.framesReceived), processed \(statistics.framesProcessed), "
                + "dropped \(statistics.framesDropped)\(latency)")
    }

    /// A frame's table line: the timestamp right-aligned in 8 columns, then the first head's categories.
    private static func tableLine(_ heads: [Classifications], timestamp: Int) -> String {
        let categories = (heads.first?.categories ?? []).map {
            "\($0.index) \(TableText.escaped($0.displayName ?? $0.categoryName ?? "")) \(TableText.score($0.score))"
        }
        let time = String(repeating: " ", count: max(0, 8 - String(timestamp).count)) + "\(timestamp) ms"
        return
            "\(time)  \(categories.isEmpty ? "(no category at or above the score threshold)" : categories.joined(separator: " | "))"
    }

    /// Prints `record` as a JSON line; a record that cannot be encoded (a bug) is reported on stderr.
    /// - Returns: whether it was printed.
    @discardableResult
    private func emitJSON(_ record: some Encodable) -> Bool {
        do {
            StandardStreams.emit(try JSONText.encode(record))
            return true
        } catch {
            StandardStreams.reportError(error)
            return false
        }
    }
}
