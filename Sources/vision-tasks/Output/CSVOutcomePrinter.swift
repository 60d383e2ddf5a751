import Foundation
import ImageTasks
import TasksCommon

/// Prints the outcomes of classify, label and embed as CSV (`--format csv`), as each image is
/// done: a header, then the output's records (`PrintableOutput.csvRecords`).
///
/// classify: `image,headIndex,headName,rank,index,categoryName,displayName,score,error`;
/// label: `image,rank,index,text,confidence,error`. `rank` counts from 1 (best first); absent
/// names are empty fields; scores are written as Swift prints a `Float` (the shortest text
/// that reads back as the same value, as in JSON). A head with no category at or above the
/// threshold (or an image without labels) is one record with only the image (and head)
/// filled, so that every image appears. An image that failed is one record with only `image`
/// and `error` ("CODE: message") filled, and is also reported on stderr as the table format
/// does.
struct CSVOutcomePrinter<Output: PrintableOutput> {
    /// The header record's fields.
    static var header: [String] { ["image"] + Output.csvColumns + ["error"] }

    private var printedHeader = false

    /// Prints one image's records (and the header before the first).
    mutating func add(_ outcome: ImageOutcome<Output>) {
        let image = outcome.path.description
        let width = Self.header.count
        if !printedHeader {
            printedHeader = true
            StandardStreams.emit(CSVText.record(Self.header))
        }
        switch outcome.result {
        case .success(let output):
            for fields in output.csvRecords { emit([image] + fields, width: width) }
        case .failure(let error):
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
