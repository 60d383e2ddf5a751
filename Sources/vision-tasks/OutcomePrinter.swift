import Foundation
import ImageLabeling
import VisionTasks

/// How `classify` and `label` print their results.
enum OutputFormat: String, CaseIterable {
    /// A readable table per image, after MediaPipe's ImageClassifierResult example.
    case table
    /// One JSON array of all images, printed at the end.
    case json
    /// One JSON object per image and line, printed as each image is done.
    case jsonl

    /// The `--format` option's value (default table).
    /// - Throws: `UsageError` for an unknown format.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        let text = parsed.value("format") ?? "table"
        guard let format = OutputFormat(rawValue: text) else {
            throw UsageError("--format must be one of \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
        }
        self = format
    }
}

/// One image's outcome, encoded as `{"image", "classifications"}` (classify), `{"image",
/// "labels"}` (label) or `{"image", "error"}`, with the Swift property names as keys.
struct ImageOutcome: Encodable {
    let image: String
    let payload: Payload

    enum Payload {
        case classifications([Classifications])
        case labels([ImageLabel])
        case error(TasksError)
    }

    var failed: Bool {
        if case .error = payload { return true }
        return false
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(image, forKey: .image)
        switch payload {
        case .classifications(let heads): try container.encode(heads.map(HeadJSON.init), forKey: .classifications)
        case .labels(let labels): try container.encode(labels.map(LabelJSON.init), forKey: .labels)
        case .error(let error): try container.encode(ErrorJSON(error), forKey: .error)
        }
    }

    private enum CodingKeys: String, CodingKey { case image, classifications, labels, error }
}

/// An error in JSON: `code` is MediaPipe's status name, such as "INVALID_ARGUMENT".
struct ErrorJSON: Encodable {
    let code: String
    let message: String

    init(_ error: TasksError) {
        code = error.code.statusName
        message = error.message
    }
}

/// `ImageLabel` in JSON: text, confidence, index.
struct LabelJSON: Encodable {
    let text: String
    let confidence: Float
    let index: Int

    init(_ label: ImageLabel) {
        (text, confidence, index) = (label.text, label.confidence, label.index)
    }
}

/// `Classifications` in JSON: headIndex, headName, categories (absent names are null).
struct HeadJSON: Encodable {
    let head: Classifications

    init(_ head: Classifications) { self.head = head }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(head.headIndex, forKey: .headIndex)
        try container.encode(head.headName, forKey: .headName)
        try container.encode(head.categories.map(CategoryJSON.init), forKey: .categories)
    }

    private enum CodingKeys: String, CodingKey { case headIndex, headName, categories }
}

/// `ResultCategory` in JSON: index, score, categoryName, displayName.
struct CategoryJSON: Encodable {
    let category: ResultCategory

    init(_ category: ResultCategory) { self.category = category }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(category.index, forKey: .index)
        try container.encode(category.score, forKey: .score)
        try container.encode(category.categoryName, forKey: .categoryName)
        try container.encode(category.displayName, forKey: .displayName)
    }

    private enum CodingKeys: String, CodingKey { case index, score, categoryName, displayName }
}

/// Renders outcomes in one of the formats.
struct OutcomePrinter {
    let format: OutputFormat
    private var pending: [ImageOutcome] = []

    init(format: OutputFormat) { self.format = format }

    /// Runs `work` on every image (folders already expanded), printing each outcome as it
    /// comes; returns the exit status: 0 when all succeeded, 1 when any failed.
    static func run(_ paths: [String], format: OutputFormat, work: (String) -> ImageOutcome.Payload) -> Int32 {
        var printer = OutcomePrinter(format: format)
        var failures = 0
        for path in paths {
            let outcome = ImageOutcome(image: path, payload: work(path))
            if outcome.failed { failures += 1 }
            printer.add(outcome)
        }
        printer.finish()
        return failures == 0 ? 0 : 1
    }

    /// Prints (table, jsonl) or keeps (json) one image's outcome. Errors go to stderr in table format.
    mutating func add(_ outcome: ImageOutcome) {
        switch format {
        case .table: printTable(outcome)
        case .jsonl: emit(Self.json(outcome))
        case .json: pending.append(outcome)
        }
    }

    /// Prints what `json` kept: one array.
    func finish() {
        if format == .json { emit(Self.json(pending)) }
    }

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private func printTable(_ outcome: ImageOutcome) {
        switch outcome.payload {
        case .error(let error):
            FileHandle.standardError.write(Data("\(outcome.image): error: \(error.code.statusName): \(error.message)\n".utf8))
        case .classifications(let heads):
            emit(outcome.image)
            printHeads(heads)
        case .labels(let labels):
            emit(outcome.image)
            let rows = labels.map { [String($0.index), $0.text, String(format: "%.5f", $0.confidence)] }
            printAligned(header: ["index", "text", "confidence"], rows: rows, indent: "  ")
            if rows.isEmpty { emit("  (no label at or above the confidence threshold)") }
        }
    }

    private func printHeads(_ heads: [Classifications]) {
        for head in heads {
            let name = head.headName.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
            emit("  head \(head.headIndex)\(name)")
            let rows = head.categories.map { [String($0.index), $0.categoryName ?? "", $0.displayName ?? "", String(format: "%.5f", $0.score)] }
            printAligned(header: ["index", "category name", "display name", "score"], rows: rows, indent: "    ")
            if rows.isEmpty { emit("    (no category at or above the score threshold)") }
        }
    }

    private func printAligned(header: [String], rows: [[String]], indent: String) {
        let table = [header] + rows
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            let cells = row.enumerated().map { column, text in
                let padding = String(repeating: " ", count: widths[column] - text.count)
                return column == 0 || column == row.count - 1 ? padding + text : text + padding
            }
            emit(indent + cells.joined(separator: "  "))
        }
    }
}
