import TasksCommon

/// The feature rows of a `TrainingSet`: a matrix of doubles, or the float32 rows a feature
/// extractor gave (kept as they are: the fit reads them in blocks converted to double, so that
/// the features are held once, at 4 bytes each, not copied to 8).
enum FeatureRows: Sendable {
    case matrix(Matrix)
    case floats([[Float]], columns: Int)

    /// Rows converted at a time from float32 for the moments (`FeatureMoments`): 256 rows of
    /// 1,024 features are 2 MB of doubles, enough rows per `cblas_dsyrk` for OpenBLAS's threads.
    /// (An evaluation's blocks are `SoftmaxObjective.blockRows`.)
    static let blockRows = 256

    var rows: Int {
        switch self {
        case .matrix(let matrix): matrix.rows
        case .floats(let rows, _): rows.count
        }
    }

    var columns: Int {
        switch self {
        case .matrix(let matrix): matrix.columns
        case .floats(_, let columns): columns
        }
    }

    /// Rows `range` as `range.count × columns` doubles, row-major, borrowed for `body`: the
    /// matrix's own, or float rows converted into `scratch` (grown as needed).
    func withDoubles<R>(_ range: Range<Int>, scratch: inout [Double], _ body: (UnsafePointer<Double>) -> R) -> R {
        switch self {
        case .matrix(let matrix):
            return matrix.values.withUnsafeBufferPointer { body($0.baseAddress! + range.lowerBound * matrix.columns) }
        case .floats(let rows, let columns):
            if scratch.count < range.count * columns { scratch = [Double](repeating: 0, count: range.count * columns) }
            return scratch.withUnsafeMutableBufferPointer { buffer in
                var target = buffer.baseAddress!
                for row in range {
                    rows[row].withUnsafeBufferPointer { source in
                        for column in 0..<columns { target[column] = Double(source[column]) }
                    }
                    target += columns
                }
                return body(UnsafePointer(buffer.baseAddress!))
            }
        }
    }

    /// The rows as a matrix of doubles (a copy for float rows).
    var matrix: Matrix {
        switch self {
        case .matrix(let matrix): return matrix
        case .floats(let rows, let columns):
            var values: [Double] = []
            values.reserveCapacity(rows.count * columns)
            for row in rows { values.append(contentsOf: row.lazy.map(Double.init)) }
            return Matrix(unchecked: rows.count, columns: columns, values: values)
        }
    }

    /// Throws when an element is NaN or infinite, naming the first one.
    /// - Throws: `TasksError` invalidArgument (subject `features`).
    func requireFinite() throws(TasksError) {
        switch self {
        case .matrix(let matrix): try matrix.requireFinite()
        case .floats(let rows, _):
            for (index, row) in rows.enumerated() {
                if let column = row.firstIndex(where: { !$0.isFinite }) {
                    throw TrainingErrors.nonFinite(row: index, column: column, value: Double(row[column]))
                }
            }
        }
    }
}
