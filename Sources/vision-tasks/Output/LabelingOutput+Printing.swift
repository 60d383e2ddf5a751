import ImageLabeling
import ImageTasks

extension LabelingOutput: PrintableOutput {
    /// One table: index, text, confidence.
    var tableLines: [String] {
        let rows = labels.map { [String($0.index), TableText.escaped($0.text), TableText.score($0.confidence)] }
        return TableText.aligned(header: ["index", "text", "confidence"], rows: rows, indent: "  ")
            + (rows.isEmpty ? ["  (no label at or above the confidence threshold)"] : [])
    }

    static let csvColumns = ["rank", "index", "text", "confidence"]

    /// A record per label (`rank` from 1); none: one record with only the image.
    var csvRecords: [[String]] {
        guard !labels.isEmpty else { return [[]] }
        return labels.enumerated().map { rank, label in
            [String(rank + 1), String(label.index), label.text, String(label.confidence)]
        }
    }

    /// The labels as bars; the summary counts the top label.
    var reportCard: (body: String, summaryName: String) {
        let bars = labels.map { ReportPage.Bar(name: $0.text, score: $0.confidence, index: $0.index) }
        return (
            ReportPage.bars(bars, empty: "No label at or above the confidence threshold."), labels.first?.text ?? "(no label)"
        )
    }
}
