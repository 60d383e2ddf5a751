import TasksCommon

/// A dense matrix of `Double`s, row-major: element (r, c) is `values[r * columns + c]`.
///
/// The training features are one (N examples × D features: one embedding per row), as are a
/// model's weights (K classes × D features) and the probabilities it predicts (N × K).
package struct Matrix: Sendable, Equatable {
    /// The number of rows (≥ 0).
    package let rows: Int
    /// The number of columns (≥ 0).
    package let columns: Int
    /// The `rows × columns` elements, row after row.
    package let values: [Double]

    /// A matrix of `rows × columns` values given row after row.
    /// - Throws: `TasksError` invalidArgument when a dimension is negative or `values` does not
    ///   hold `rows × columns` elements.
    package init(rows: Int, columns: Int, values: [Double]) throws(TasksError) {
        guard rows >= 0, columns >= 0 else { throw TrainingErrors.negativeSize(rows: rows, columns: columns) }
        guard values.count == rows * columns else {
            throw TrainingErrors.valueCount(values.count, rows: rows, columns: columns)
        }
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// A matrix with one row per element of `rows` (an embedding per example, say); every row
    /// must have the same length. No rows make a 0 × 0 matrix.
    /// - Throws: `TasksError` invalidArgument when the rows differ in length.
    package init<Row: Collection>(rows: [Row]) throws(TasksError) where Row.Element: BinaryFloatingPoint {
        let columns = rows.first?.count ?? 0
        var values: [Double] = []
        values.reserveCapacity(rows.count * columns)
        for (index, row) in rows.enumerated() {
            guard row.count == columns else { throw TrainingErrors.raggedRow(index, count: row.count, expected: columns) }
            values.append(contentsOf: row.lazy.map { Double($0) })
        }
        self.rows = rows.count
        self.columns = columns
        self.values = values
    }

    /// A matrix whose size the caller has made right (`values.count == rows * columns`).
    init(unchecked rows: Int, columns: Int, values: [Double]) {
        assert(rows >= 0 && columns >= 0 && values.count == rows * columns)
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// The element at (`row`, `column`); both must be in range.
    package subscript(row: Int, column: Int) -> Double {
        precondition(
            0 <= row && row < rows && 0 <= column && column < columns, "(\(row), \(column)) outside \(rows) × \(columns)")
        return values[row * columns + column]
    }

    /// The `columns` elements of row `index`, which must be in range.
    package func row(_ index: Int) -> ArraySlice<Double> {
        precondition(0 <= index && index < rows, "row \(index) outside 0..<\(rows)")
        return values[index * columns..<(index + 1) * columns]
    }

    /// Throws when an element is NaN or infinite, naming the first one.
    /// - Throws: `TasksError` invalidArgument (subject `features`).
    func requireFinite() throws(TasksError) {
        guard let index = values.firstIndex(where: { !$0.isFinite }) else { return }
        throw TrainingErrors.nonFinite(row: index / columns, column: index % columns, value: values[index])
    }
}
