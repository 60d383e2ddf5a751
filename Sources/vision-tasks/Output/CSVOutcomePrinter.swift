import Foundation
import TasksCommon
import VisionTasks

/// Prints the outcomes of classify and label as CSV (`--format csv`), as each image is done:
/// a header, then one record per image and category (classify) or label (label).
///
/// classify: `image,headIndex,headName,rank,index,categoryName,displayName,score,error`;
/// label: `image,rank,index,text,confidence,error`. `rank` counts from 1 (best first); absent
/// names are empty fields; scores are written as Swift prints a `Float` (the shortest text
/// that reads back as the same value, as in JSON). A head with no category at or above the
/// threshold (or an image without labels) is one record with only the image (and head)
/// filled, so that every image appears. An image that failed is one record with only `image`
/// and `error` ("CODE: message") filled, and is also reported on stderr as the table format
/// does.
struct CSVOutcomePrinter {
    /// Which command's columns: classify's or label's.
    enum Columns {
        case classifications
        case labels

        /// The header record's fields.
        var header: [String] {
            switch self {
            case .classifications:
                ["image", "headIndex", "headName", "rank", "index", "categoryName", "displayName", "score", "error"]
            case .labels: ["image", "rank", "index", "text", "confidence", "error"]
            }
        }
    }

    let columns: Columns
    private var printedHeader = false

    init(columns: Columns) {
        self.columns = columns
    }

    /// Prints one image's records (and the header before the first).
    mutating func add(_ outcome: ImageOutcome) {
        let image = outcome.path.description
        let width = columns.header.count
        if !printedHeader {
            printedHeader = true
            StandardStreams.emit(CSVText.record(columns.header))
        }
        switch outcome.payload {
        case .classifications(let heads):
            for head in heads {
                let headFields = [image, String(head.headIndex), head.headName ?? ""]
                if head.categories.isEmpty { emit(headFields, width: width) }
                for (rank, category) in head.categories.enumerated() {
                    emit(
                        headFields + [
                            String(rank + 1), String(category.index), category.categoryName ?? "",
                            category.displayName ?? "", String(category.score),
                        ], width: width)
                }
            }
        case .labels(let labels):
            if labels.isEmpty { emit([image], width: width) }
            for (rank, label) in labels.enumerated() {
                emit([image, String(rank + 1), String(label.index), label.text, String(label.confidence)], width: width)
            }
        case .error(let error):
            StandardStreams.warn("\(TableText.escaped(image)): error: \(ErrorText.describe(error))")
            emit(
                [image] + Array(repeating: "", count: width - 2) + ["\(error.code.statusName): \(ErrorText.message(error))"],
                width: width)
        }
    }

    /// Prints `fields`, padded with empty fields to `width`.
    private func emit(_ fields: [String], width: Int) {
        StandardStreams.emit(CSVText.record(fields + Array(repeating: "", count: max(0, width - fields.count))))
    }
}
