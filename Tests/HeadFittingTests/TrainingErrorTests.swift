import HeadFitting
import TasksCommon
import TestSupport
import Testing

/// Each misuse gives invalidArgument with its exact message (the subject, then the reason).
struct TrainingErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let message: String
        let body: @Sendable () throws -> Void
        var testDescription: String { id }
    }

    static let good = try! Matrix(rows: 4, columns: 2, values: [0, 1, 1, 0, 2, 2, -1, 3])
    static let model = try! SoftmaxRegression(weights: Matrix(rows: 2, columns: 2, values: [1, 0, 0, 1]), bias: [0, 0])

    static func fit(_ options: SoftmaxRegressionOptions) throws {
        _ = try SoftmaxRegression.fit(TrainingSet(features: good, labels: [0, 1, 0, 1], classCount: 2), options: options)
    }

    static let cases: [Case] = [
        Case(id: "value count", message: "matrix: 5 values for 2 rows × 3 columns (6 needed)") {
            _ = try Matrix(rows: 2, columns: 3, values: [1, 2, 3, 4, 5])
        },
        Case(id: "negative size", message: "matrix: a negative size (-1 rows × 3 columns)") {
            _ = try Matrix(rows: -1, columns: 3, values: [])
        },
        Case(id: "ragged rows", message: "matrix: rows of different lengths (row 0: 2 values, row 2: 1)") {
            _ = try Matrix(rows: [[1.0, 2], [3, 4], [5]])
        },
        Case(id: "no rows", message: "features: 0 rows × 2 columns; training needs at least 1 row and 1 column") {
            _ = try TrainingSet(features: Matrix(rows: 0, columns: 2, values: []), labels: [], classCount: 2)
        },
        Case(id: "no columns", message: "features: 3 rows × 0 columns; training needs at least 1 row and 1 column") {
            _ = try TrainingSet(features: Matrix(rows: 3, columns: 0, values: []), labels: [0, 1, 0], classCount: 2)
        },
        Case(id: "one class", message: "classCount is 1; softmax regression needs at least 2 classes") {
            _ = try TrainingSet(features: good, labels: [0, 0, 0, 0], classCount: 1)
        },
        Case(id: "label count", message: "labels: 3 labels for 4 feature rows (one label per row needed)") {
            _ = try TrainingSet(features: good, labels: [0, 1, 0], classCount: 2)
        },
        Case(id: "label too large", message: "labels: label 2 of row 3 is outside 0..<2") {
            _ = try TrainingSet(features: good, labels: [0, 1, 0, 2], classCount: 2)
        },
        Case(id: "negative label", message: "labels: label -1 of row 1 is outside 0..<3") {
            _ = try TrainingSet(features: good, labels: [0, -1, 2, 1], classCount: 3)
        },
        Case(id: "NaN feature", message: "features: row 1, column 1 is nan; features must be finite numbers") {
            _ = try TrainingSet(features: Matrix(rows: 2, columns: 2, values: [0, 1, 2, .nan]), labels: [0, 1], classCount: 2)
        },
        Case(id: "infinite feature", message: "features: row 0, column 0 is -inf; features must be finite numbers") {
            _ = try TrainingSet(features: Matrix(rows: 1, columns: 1, values: [-.infinity]), labels: [0], classCount: 2)
        },
        Case(
            id: "class without rows",
            message: "labels: class 2 has no rows; without label smoothing its bias has no minimum (it falls without end)"
        ) {
            _ = try SoftmaxRegression.fit(TrainingSet(features: good, labels: [0, 1, 0, 1], classCount: 3))
        },
        Case(id: "negative l2Strength", message: "l2Strength must be a finite number >= 0, got -1.0") {
            try fit(SoftmaxRegressionOptions(l2Strength: -1))
        },
        Case(id: "infinite l2Strength", message: "l2Strength must be a finite number >= 0, got inf") {
            try fit(SoftmaxRegressionOptions(l2Strength: .infinity))
        },
        Case(id: "labelSmoothing 1", message: "labelSmoothing must be in [0, 1), got 1.0") {
            try fit(SoftmaxRegressionOptions(labelSmoothing: 1))
        },
        Case(id: "maxIterations 0", message: "maxIterations must be in 1...2147483647, got 0") {
            try fit(SoftmaxRegressionOptions(maxIterations: 0))
        },
        Case(id: "NaN gradientTolerance", message: "gradientTolerance must be a finite number >= 0, got nan") {
            try fit(SoftmaxRegressionOptions(gradientTolerance: .nan))
        },
        Case(
            id: "negative objectiveDecreaseTolerance",
            message: "objectiveDecreaseTolerance must be a finite number >= 0, got -0.1"
        ) {
            try fit(SoftmaxRegressionOptions(objectiveDecreaseTolerance: -0.1))
        },
        Case(id: "objectiveDecreaseWindow 0", message: "objectiveDecreaseWindow must be in 1...2147483647, got 0") {
            try fit(SoftmaxRegressionOptions(objectiveDecreaseWindow: 0))
        },
        Case(id: "historySize 0", message: "historySize must be in 1...2147483647, got 0") {
            try fit(SoftmaxRegressionOptions(historySize: 0))
        },
        Case(
            id: "model shape",
            message:
                "model: weights are 2 × 2 and the bias has 3 values; a model needs at least 2 classes, 1 feature and one bias per class"
        ) {
            _ = try SoftmaxRegression(weights: Matrix(rows: 2, columns: 2, values: [1, 0, 0, 1]), bias: [0, 0, 0])
        },
        Case(id: "non-finite bias", message: "model: bias element 1 is nan; a model's values must be finite numbers") {
            _ = try SoftmaxRegression(weights: Matrix(rows: 2, columns: 1, values: [1, 0]), bias: [0, .nan])
        },
        Case(id: "prediction width", message: "features: 3 columns, but the model takes 2 features") {
            _ = try model.predictions(for: Matrix(rows: 1, columns: 3, values: [1, 2, 3]))
        },
        Case(id: "non-finite prediction input", message: "features: row 0, column 1 is inf; features must be finite numbers") {
            _ = try model.probabilities(for: Matrix(rows: 1, columns: 2, values: [1, .infinity]))
        },
        Case(id: "objective class count", message: "labels: 3 classes, but the model has 2") {
            _ = try model.objective(
                on: TrainingSet(features: good, labels: [0, 1, 2, 1], classCount: 3), options: SoftmaxRegressionOptions())
        },
    ]

    @Test(arguments: cases)
    func misuseIsAnInvalidArgument(_ item: Case) {
        expectTasksError(.invalidArgumentError, message: item.message) { try item.body() }
    }

    /// An option's error names it as its subject (not repeated in the message).
    @Test func optionErrorsNameTheOption() throws {
        let error = expectTasksError(.invalidArgumentError, message: "labelSmoothing must be in [0, 1), got -0.5") {
            try Self.fit(SoftmaxRegressionOptions(labelSmoothing: -0.5))
        }
        #expect(error?.subject == .option("labelSmoothing"))
        #expect(error?.description == "INVALID_ARGUMENT: labelSmoothing must be in [0, 1), got -0.5")
    }
}
