import ImageTasks
import VisionTasks

extension ClassificationOutput: PrintableOutput {
    /// A table per head: index, category name, display name (only when a row has one), score.
    /// Categories whose score shows as 0.00000 are left out and counted in one line; json, jsonl
    /// and csv keep them all.
    var tableLines: [String] {
        heads.flatMap { head in
            let name = head.headName.map { $0.isEmpty ? "" : " (\(TableText.escaped($0)))" } ?? ""
            let shown = head.categories.filter { !TableText.showsAsZero($0.score) }
            let displayNames = shown.contains { !($0.displayName ?? "").isEmpty }
            let rows = shown.map {
                [String($0.index), TableText.escaped($0.categoryName ?? "")]
                    + (displayNames ? [TableText.escaped($0.displayName ?? "")] : []) + [TableText.score($0.score)]
            }
            let header = ["index", "category name"] + (displayNames ? ["display name"] : []) + ["score"]
            let table = TableText.aligned(header: header, rows: rows, indent: "    ")
            let omitted = TableText.omittedZeros(head.categories.count - shown.count, column: "score", indent: "    ")
            return ["  head \(head.headIndex)\(name)"] + table
                + (head.categories.isEmpty ? ["    (no category at or above the score threshold)"] : [])
                + omitted
        }
    }

    static let csvColumns = ["headIndex", "headName", "rank", "index", "categoryName", "displayName", "score"]

    /// A record per head and category (`rank` from 1); a head without categories is one record
    /// with only the head filled.
    var csvRecords: [[String]] {
        heads.flatMap { head in
            let headFields = [String(head.headIndex), head.headName ?? ""]
            guard !head.categories.isEmpty else { return [headFields] }
            return head.categories.enumerated().map { rank, category in
                headFields + [
                    String(rank + 1), String(category.index), category.categoryName ?? "", category.displayName ?? "",
                    String(category.score),
                ]
            }
        }
    }

    /// Bars per head (a title per head when there are several); the summary counts the first
    /// head's top category.
    var reportCard: (body: String, summaryName: String) {
        let body = heads.map { head in
            let title =
                heads.count > 1
                ? "<h3>head \(head.headIndex)\(head.headName.map { " · " + HTMLText.shown($0) } ?? "")</h3>" : ""
            let bars = head.categories.map { ReportPage.Bar(name: ImageReport.name($0), score: $0.score, index: $0.index) }
            return title + ReportPage.bars(bars, empty: "No category at or above the score threshold.")
        }.joined()
        return (body, heads.first?.categories.first.map(ImageReport.name) ?? "(no category)")
    }
}
