/// How results are printed.
enum OutputFormat: String, CaseIterable, Sendable {
    /// Readable text: a table per image (after MediaPipe's ImageClassifierResult example), a
    /// line per frame. Errors go to stderr.
    case table
    /// One JSON array of all images, printed at the end.
    case json
    /// One JSON object per image or frame and line, printed as each is done.
    case jsonl
    /// CSV (RFC 4180 quoting): a header, then one record per image and category or label
    /// (classify and label; `CSVOutcomePrinter`).
    case csv
    /// A NumPy `.npy` array of the images' embeddings, written at the end (embed; `NumPyMatrix`).
    case npy

    /// The formats of classify and label: every one but npy (their outputs are not vectors).
    static let records: [OutputFormat] = [.table, .json, .jsonl, .csv]
}
