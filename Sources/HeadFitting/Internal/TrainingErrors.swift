import TasksCommon

/// Every error the Training target raises, built here so that the messages read alike:
/// the subject (`features`, `labels`, an option), then what is wrong, with the values.
enum TrainingErrors {
    /// The subject of errors about the features matrix.
    static let features = TasksError.Subject.buffer("features")
    /// The subject of errors about the labels.
    static let labels = TasksError.Subject.buffer("labels")
    /// The subject of errors about a model's weights and bias.
    static let model = TasksError.Subject.buffer("model")

    /// A matrix built with a negative dimension.
    static func negativeSize(rows: Int, columns: Int) -> TasksError {
        .invalidArgument("matrix: a negative size (\(rows) rows × \(columns) columns)")
    }

    /// A matrix given the wrong number of values.
    static func valueCount(_ count: Int, rows: Int, columns: Int) -> TasksError {
        .invalidArgument("matrix: \(count) values for \(rows) rows × \(columns) columns (\(rows * columns) needed)")
    }

    /// A matrix built from rows of different lengths.
    static func raggedRow(_ row: Int, count: Int, expected: Int) -> TasksError {
        .invalidArgument("matrix: rows of different lengths (row 0: \(expected) values, row \(row): \(count))")
    }

    /// Training data without rows or without columns.
    static func emptyFeatures(rows: Int, columns: Int) -> TasksError {
        .invalidArgument(
            "\(rows) rows × \(columns) columns; training needs at least 1 row and 1 column", subject: features)
    }

    /// A dimension beyond what BLAS and liblbfgs take (their sizes are 32-bit `int`s).
    static func tooLarge(_ what: String, _ value: Int) -> TasksError {
        .invalidArgument("\(value) \(what) exceed the \(Int32.max) that BLAS and liblbfgs take", subject: features)
    }

    /// A NaN or infinity in a features matrix.
    static func nonFinite(row: Int, column: Int, value: Double) -> TasksError {
        .invalidArgument("row \(row), column \(column) is \(value); features must be finite numbers", subject: features)
    }

    /// A features matrix whose width is not the model's.
    static func columnMismatch(_ columns: Int, expected: Int) -> TasksError {
        .invalidArgument("\(columns) columns, but the model takes \(expected) features", subject: features)
    }

    /// Training data for another number of classes than a model's.
    static func classMismatch(_ count: Int, expected: Int) -> TasksError {
        .invalidArgument("\(count) classes, but the model has \(expected)", subject: labels)
    }

    /// Fewer than two classes.
    static func classCount(_ count: Int) -> TasksError {
        .invalidArgument("classCount is \(count); softmax regression needs at least 2 classes", subject: .option("classCount"))
    }

    /// Labels and feature rows that do not pair up.
    static func labelCount(_ count: Int, rows: Int) -> TasksError {
        .invalidArgument("\(count) labels for \(rows) feature rows (one label per row needed)", subject: labels)
    }

    /// A label that is not a class index.
    static func labelOutOfRange(_ label: Int, row: Int, classCount: Int) -> TasksError {
        .invalidArgument("label \(label) of row \(row) is outside 0..<\(classCount)", subject: labels)
    }

    /// A class no row belongs to, when nothing bounds its bias.
    static func emptyClass(_ label: Int) -> TasksError {
        .invalidArgument(
            "class \(label) has no rows; without label smoothing its bias has no minimum (it falls without end)",
            subject: labels)
    }

    /// Weights and a bias that do not make a model.
    static func modelShape(weights: Matrix, biasCount: Int) -> TasksError {
        .invalidArgument(
            "weights are \(weights.rows) × \(weights.columns) and the bias has \(biasCount) values; "
                + "a model needs at least 2 classes, 1 feature and one bias per class",
            subject: model)
    }

    /// A NaN or infinity in a model's weights or bias.
    static func nonFiniteModel(_ what: String, index: Int, value: Double) -> TasksError {
        .invalidArgument("\(what) element \(index) is \(value); a model's values must be finite numbers", subject: model)
    }

    /// An option out of its range.
    static func option(_ name: String, _ value: any CustomStringConvertible, mustBe range: String) -> TasksError {
        .invalidArgument("\(name) must be \(range), got \(value)", subject: .option(name))
    }

    /// The fit stopped because the calling task was cancelled.
    static func cancelled(at iterations: Int) -> TasksError {
        TasksError(.cancelledError, "training was cancelled at iteration \(iterations)")
    }

    /// The solver's last point is not finite (an overflow the stable softmax should prevent).
    static func nonFiniteObjective(_ value: Double) -> TasksError {
        .internal("the objective is not a finite number at the solver's last point (\(value))")
    }

    /// liblbfgs refused to run (our options are checked first, so this is a bug or no memory).
    static func solverFailed(_ status: LBFGSStatus) -> TasksError {
        .internal("liblbfgs failed: \(status)")
    }
}
