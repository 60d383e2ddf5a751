import Foundation
import VisionTasks

/// How `classify` prints its results.
enum OutputFormat: String, CaseIterable {
    /// A readable table per image, after MediaPipe's ImageClassifierResult example.
    case table
    /// One JSON array of all images, printed at the end.
    case json
    /// One JSON object per image and line, printed as each image is done.
    case jsonl
}

/// One image's outcome, encoded as `{"image", "classifications"}` or `{"image", "error"}` with
/// the Swift property names as keys.
struct ImageOutcome: Encodable {
    let image: String
    let classifications: [Classifications]?
    let error: ErrorDescription?

    struct ErrorDescription: Encodable {
        /// MediaPipe's status name, such as "INVALID_ARGUMENT".
        let code: String
        let message: String
    }

    init(image: String, result: Result<ImageClassifierResult, TasksError>) {
        self.image = image
        switch result {
        case .success(let value):
            classifications = value.classificationResult.classifications
            error = nil
        case .failure(let failure):
            classifications = nil
            error = ErrorDescription(code: failure.code.statusName, message: failure.message)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(image, forKey: .image)
        try container.encodeIfPresent(classifications.map { $0.map(HeadJSON.init) }, forKey: .classifications)
        try container.encodeIfPresent(error, forKey: .error)
    }

    private enum CodingKeys: String, CodingKey { case image, classifications, error }
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

    /// Prints (table, jsonl) or keeps (json) one image's outcome. Errors go to stderr in table format.
    mutating func add(_ outcome: ImageOutcome) {
        switch format {
        case .table: printTable(outcome)
        case .jsonl: print(Self.json(outcome))
        case .json: pending.append(outcome)
        }
    }

    /// Prints what `json` kept: one array.
    func finish() {
        if format == .json { print(Self.json(pending)) }
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private func printTable(_ outcome: ImageOutcome) {
        if let error = outcome.error {
            FileHandle.standardError.write(Data("\(outcome.image): error: \(error.code): \(error.message)\n".utf8))
            return
        }
        print(outcome.image)
        for head in outcome.classifications ?? [] {
            let name = head.headName.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
            print("  head \(head.headIndex)\(name)")
            let rows = head.categories.map { [String($0.index), $0.categoryName ?? "", $0.displayName ?? "", String(format: "%.5f", $0.score)] }
            printAligned(header: ["index", "category name", "display name", "score"], rows: rows, indent: "    ")
            if rows.isEmpty { print("    (no category above the score threshold)") }
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
            print(indent + cells.joined(separator: "  "))
        }
    }
}
