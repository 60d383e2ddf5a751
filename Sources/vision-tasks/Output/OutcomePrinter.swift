import Foundation
import ImageTasks
import TasksCommon

/// Prints the outcomes of classify, label and embed in one of the formats.
///
/// Table: per image its (escaped) path, then the output's lines (`PrintableOutput.tableLines`);
/// errors go to stderr as `PATH: error: CODE: message`. jsonl: one `ImageOutcomeRecord` per line
/// as each image is done. json: one array of them at the end. csv: `CSVOutcomePrinter`. npy:
/// one array of the images' rows (`PrintableOutput.matrixRow`) at the end, on standard output;
/// a failed image is reported on stderr, and then no array is written (a row cannot hold an
/// error, and a missing one would shift the rows after it).
struct OutcomePrinter<Output: PrintableOutput> {
    let format: OutputFormat
    private var pending: [ImageOutcomeRecord<Output>] = []
    private var csv = CSVOutcomePrinter<Output>()
    private var matrix = NumPyMatrix()
    /// Whether an outcome could not be printed (and was reported on stderr instead).
    private(set) var printingFailed = false

    init(format: OutputFormat) {
        self.format = format
    }

    /// Prints (table, jsonl, csv) or keeps (json) one image's outcome.
    mutating func add(_ outcome: ImageOutcome<Output>) {
        switch format {
        case .table: printTable(outcome)
        case .jsonl: if let (_, line) = encoded(outcome.record) { StandardStreams.emit(line) }
        case .json: if let (record, _) = encoded(outcome.record) { pending.append(record) }
        case .csv: csv.add(outcome)
        case .npy: addRow(outcome)
        }
    }

    /// Keeps one image's row; a failed image (or one whose row does not fit) fails the array.
    private mutating func addRow(_ outcome: ImageOutcome<Output>) {
        do throws(TasksError) {
            let output = try outcome.result.get()
            guard let row = output.matrixRow else {
                throw .invalidArgument("The output has no vector to write as a row.", subject: .file(outcome.path.description))
            }
            try matrix.append(row, image: outcome.path.description)
        } catch {
            StandardStreams.warn(
                "\(TableText.escaped(outcome.path.description)): error: \(ErrorText.describe(error, imageFile: outcome.path.description))"
            )
            printingFailed = true
        }
    }

    /// Prints what json kept: one array.
    mutating func finish() {
        if format == .npy {
            if !printingFailed { StandardStreams.write(matrix.data) }
            return
        }
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
    private mutating func encoded(_ record: ImageOutcomeRecord<Output>) -> (ImageOutcomeRecord<Output>, String)? {
        do {
            return (record, try JSONText.encode(record))
        } catch {
            printingFailed = true
            let replacement = ImageOutcomeRecord<Output>(image: record.image, error: ErrorRecord(error))
            do {
                return (replacement, try JSONText.encode(replacement))
            } catch {
                StandardStreams.reportError(error)
                return nil
            }
        }
    }

    private func printTable(_ outcome: ImageOutcome<Output>) {
        let path = TableText.escaped(outcome.path.description)
        switch outcome.result {
        case .failure(let error):
            StandardStreams.warn("\(path): error: \(ErrorText.describe(error, imageFile: outcome.path.description))")
        case .success(let output):
            StandardStreams.emit(path)
            output.tableLines.forEach(StandardStreams.emit)
        }
    }
}
