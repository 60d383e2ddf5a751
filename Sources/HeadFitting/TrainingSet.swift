import TasksCommon

/// Labelled examples to fit a classifier head on: N feature rows (embeddings), the class of
/// each, and the number of classes K. Checked once, when made.
package struct TrainingSet: Sendable {
    /// N × D: one example per row (an image's embedding), every element finite.
    let rows: FeatureRows
    /// The features as a matrix of doubles (a copy when they were given as float32 rows).
    package var features: Matrix { rows.matrix }
    /// N class indices, `labels[i]` the class of row `i`, each in `0..<classCount`.
    package let labels: [Int]
    /// K, the number of classes (≥ 2). A class may have no rows only when the fit smooths
    /// labels (`SoftmaxRegressionOptions.labelSmoothing` > 0).
    package let classCount: Int
    /// The features' mean and covariance, for the fit's preconditioner; nil for more than
    /// `FeatureMoments.largestFeatureCount` features (the fit then works on W and b as they are).
    let moments: FeatureMoments?

    /// Pairs features with labels.
    /// - Parameters:
    ///   - features: N × D, N ≥ 1 and D ≥ 1, finite values.
    ///   - labels: N class indices in `0..<classCount`.
    ///   - classCount: K ≥ 2.
    /// - Throws: `TasksError` invalidArgument when there are no rows or no columns, a feature is
    ///   NaN or infinite, `classCount` < 2, the label count is not N, a label is out of range, or
    ///   a size exceeds the 32-bit `int`s BLAS and liblbfgs take (N, D, and K × (D + 1)).
    package init(features: Matrix, labels: [Int], classCount: Int) throws(TasksError) {
        try self.init(rows: .matrix(features), labels: labels, classCount: classCount)
    }

    /// Pairs float32 feature rows (as a feature extractor gives them) with labels, keeping the
    /// rows as they are: the fit reads them in blocks, so the features are not copied.
    /// - Throws: as `init(features:labels:classCount:)`, and invalidArgument for rows of different lengths.
    package init(rows: [[Float]], labels: [Int], classCount: Int) throws(TasksError) {
        let columns = rows.first?.count ?? 0
        if let ragged = rows.firstIndex(where: { $0.count != columns }) {
            throw TrainingErrors.raggedRow(ragged, count: rows[ragged].count, expected: columns)
        }
        try self.init(rows: .floats(rows, columns: columns), labels: labels, classCount: classCount)
    }

    private init(rows features: FeatureRows, labels: [Int], classCount: Int) throws(TasksError) {
        guard features.rows > 0, features.columns > 0 else {
            throw TrainingErrors.emptyFeatures(rows: features.rows, columns: features.columns)
        }
        guard classCount >= 2 else { throw TrainingErrors.classCount(classCount) }
        guard labels.count == features.rows else { throw TrainingErrors.labelCount(labels.count, rows: features.rows) }
        if let row = labels.firstIndex(where: { !(0..<classCount).contains($0) }) {
            throw TrainingErrors.labelOutOfRange(labels[row], row: row, classCount: classCount)
        }
        let limit = Int(Int32.max)
        guard features.rows <= limit else { throw TrainingErrors.tooLarge("rows", features.rows) }
        let (parameters, overflow) = classCount.multipliedReportingOverflow(by: features.columns + 1)
        guard !overflow, parameters <= limit else {
            throw TrainingErrors.tooLarge("parameters (classes × (features + 1))", overflow ? Int.max : parameters)
        }
        try features.requireFinite()
        self.rows = features
        self.labels = labels
        self.classCount = classCount
        moments = features.columns <= FeatureMoments.largestFeatureCount ? FeatureMoments(features) : nil
    }

    /// N, the number of examples.
    package var count: Int { rows.rows }
    /// D, the number of features per example.
    package var featureCount: Int { rows.columns }

    /// The number of rows of each class: K counts.
    package var classSizes: [Int] {
        var sizes = Array(repeating: 0, count: classCount)
        for label in labels { sizes[label] += 1 }
        return sizes
    }
}
