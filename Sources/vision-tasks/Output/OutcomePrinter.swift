import Foundation
import ImageLabeling
import TasksCommon
import VisionTasks

/// Prints the outcomes of classify and label in one of the formats.
///
/// Table: per image its (escaped) path, then a table per head; errors go to stderr as
/// `PATH: error: CODE: message`. jsonl: one `ImageOutcomeRecord` per line as each image is
/// done. json: one array of them at the end.
struct OutcomePrinter {
    let format: OutputFormat
    private var pending: [ImageOutcomeRecord] = []
    private var csv: CSVOutcomePrinter
    /// Whether an outcome could not be printed (and was reported on stderr instead).
    private(set) var printingFailed = false

    init(format: OutputFormat, csvColumns: CSVOutcomePrinter.Columns = .classifications) {
        self.format = format
        csv = CSVOutcomePrinter(columns: csvColumns)
    }

    /// Prints (table, jsonl) or keeps (json) one image's outcome.
    mutating func add(_ outcome: ImageOutcome) {
        switch format {
        case .table: printTable(outcome)
        case .jsonl: if let (_, line) = encoded(outcome.record) { StandardStreams.emit(line) }
        case .json: if let (record, _) = encoded(outcome.record) { pending.append(record) }
        case .csv: csv.add(outcome)
        }
    }

    /// Prints what json kept: one array.
    mutating func finish() {
        guard format == .json else { return }
        do {
            StandardStreams.emit(try JSONText.encode(pending))
        } catch {
            StandardStreams.reportError(error)
            printingFailed = true
        }
    }

    /// The record and its JSON. A record that cannot be encoded is replaced by an error entry
    /// for its image; when even that fails (a bug), nil after reporting it on stderr.
    private mutating func encoded(_ record: ImageOutcomeRecord) -> (ImageOutcomeRecord, String)? {
        do {
            return (record, try JSONText.encode(record))
        } catch {
            printingFailed = true
            let replacement = ImageOutcomeRecord(image: record.image, error: ErrorRecord(error))
            do {
                return (replacement, try JSONText.encode(replacement))
            } catch {
                StandardStreams.reportError(error)
                return nil
            }
        }
    }

    private func printTable(_ outcome: ImageOutcome) {
        let path = TableText.escaped(outcome.path.description)
        switch outcome.payload {
        case .error(let error):
            StandardStreams.warn("\(path): error: \(ErrorText.describe(error, imageFile: outcome.path.description))")
        case .classifications(let heads):
            StandardStreams.emit(path)
            printHeads(heads)
        case .labels(let labels):
            StandardStreams.emit(path)
            let rows = labels.map { [String($0.index), TableText.escaped($0.text), Self.score($0.confidence)] }
            TableText.aligned(header: ["index", "text", "confidence"], rows: rows, indent: "  ").forEach(StandardStreams.emit)
            if rows.isEmpty { StandardStreams.emit("  (no label at or above the confidence threshold)") }
        }
    }

    private func printHeads(_ heads: [Classifications]) {
        for head in heads {
            let name = head.headName.map { $0.isEmpty ? "" : " (\(TableText.escaped($0)))" } ?? ""
            StandardStreams.emit("  head \(head.headIndex)\(name)")
            let rows = head.categories.map {
                [
                    String($0.index), TableText.escaped($0.categoryName ?? ""), TableText.escaped($0.displayName ?? ""),
                    Self.score($0.score),
                ]
            }
            TableText.aligned(header: ["index", "category name", "display name", "score"], rows: rows, indent: "    ")
                .forEach(StandardStreams.emit)
            if rows.isEmpty { StandardStreams.emit("    (no category at or above the score threshold)") }
        }
    }

    /// A score with five decimals, as the table shows it.
    static func score(_ value: Float) -> String {
        String(format: "%.5f", value)
    }
}
