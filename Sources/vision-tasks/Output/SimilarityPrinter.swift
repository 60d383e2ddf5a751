import Foundation
import ImageTasks
import TasksCommon

/// Prints what `similar` finds for each query: a table, one JSON array, or a JSON line per query.
struct SimilarityPrinter {
    /// A query's record: `{"query", "matches": [{"image", "similarity"}]}` or `{"query", "error"}`.
    struct QueryRecord: Codable, Equatable {
        let query: String
        var matches: [SimilarityRanking.Match]?
        var error: ErrorRecord?
    }

    let format: OutputFormat
    private var pending: [QueryRecord] = []
    /// Whether a record could not be printed (and was reported on stderr instead).
    private(set) var printingFailed = false

    init(format: OutputFormat) {
        self.format = format
    }

    /// Prints (table, jsonl) or keeps (json) one query's matches.
    /// - Returns: whether the query succeeded.
    mutating func add(query: FileSystemPath, result: Result<[SimilarityRanking.Match], TasksError>) -> Bool {
        var record = QueryRecord(query: query.description)
        switch result {
        case .success(let matches): record.matches = matches
        case .failure(let error): record.error = ErrorRecord(error)
        }
        switch format {
        case .json: pending.append(record)
        case .jsonl: emitJSON(record)
        default: printTable(record, result: result)
        }
        return record.error == nil
    }

    /// Prints what json kept.
    mutating func finish() {
        if format == .json { emitJSON(pending) }
    }

    private mutating func emitJSON(_ value: some Encodable) {
        do {
            StandardStreams.emit(try JSONText.encode(value))
        } catch {
            StandardStreams.reportError(error)
            printingFailed = true
        }
    }

    private func printTable(_ record: QueryRecord, result: Result<[SimilarityRanking.Match], TasksError>) {
        let query = TableText.escaped(record.query)
        switch result {
        case .failure(let error):
            StandardStreams.warn("\(query): error: \(ErrorText.describe(error, imageFile: record.query))")
        case .success(let matches):
            StandardStreams.emit(query)
            let rows = matches.enumerated().map { rank, match in
                [String(rank + 1), String(format: "%.5f", match.similarity), TableText.escaped(match.image)]
            }
            TableText.aligned(header: ["rank", "similarity", "image"], rows: rows, indent: "  ", rightAligned: [0, 1])
                .forEach(StandardStreams.emit)
            if rows.isEmpty { StandardStreams.emit("  (no other photo to compare)") }
        }
    }
}
