import ImageLabeling
import ImageTasks
import LabelingTasks

extension LabelingOutput: PrintableOutput {
    /// One table: index, text, confidence. Labels whose confidence shows as 0.00000 are left out
    /// and counted in one line; json, jsonl and csv keep them all.
    var tableLines: [String] {
        let shown = labels.filter { !TableText.showsAsZero($0.confidence) }
        let rows = shown.map { [String($0.index), TableText.escaped($0.text), TableText.score($0.confidence)] }
        let omitted = TableText.omittedZeros(labels.count - shown.count, column: "confidence", indent: "  ")
        return TableText.aligned(header: ["index", "text", "confidence"], rows: rows, indent: "  ")
            + (labels.isEmpty ? ["  (no label at or above the confidence threshold)"] : []) + omitted
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
