import ImageTasks

/// How the command line shows a task's output: the table, the CSV records and the HTML
/// report's card. Each task's output conforms in a file of its own (`ClassificationOutput+Printing`).
protocol PrintableOutput: TaskOutput {
    /// The lines under the image's path in `--format table`.
    var tableLines: [String] { get }
    /// The CSV columns between `image` and `error`.
    static var csvColumns: [String] { get }
    /// The CSV records' fields after `image` (missing trailing fields are left empty); at least
    /// one record, so that every image appears.
    var csvRecords: [[String]] { get }
    /// The report card's body (HTML) and the name counted in the report's summary.
    var reportCard: (body: String, summaryName: String) { get }
    /// The image's row of `--format npy`, for outputs that are vectors (an embedding); nil otherwise.
    var matrixRow: TensorValues? { get }
}

extension PrintableOutput {
    /// No row: classifications and labels are not vectors.
    var matrixRow: TensorValues? { nil }
}
