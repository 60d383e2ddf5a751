import ImageTasks
import Testing

/// `ClassificationMetrics` against scikit-learn 1.9.1 on the same 13 predictions (and 7 with
/// predictions outside the classes), per class and averaged
/// (`Tests/Reference/sklearn_metrics_reference.py` prints the figures).
struct ClassificationMetricsTests {
    static let labels = [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 0, 1]
    static let ranked = [
        [0, 1, 2, 3], [1, 0, 2, 3], [0, 2, 1, 3], [1, 2, 0, 3], [2, 1, 0, 3], [2, 0, 1, 3], [2, 1, 0, 3], [0, 1, 2, 3],
        [1, 2, 0, 3], [0, 3, 1, 2], [0, 1, 3, 2], [0, 1, 2, 3], [1, 0, 2, 3],
    ]

    @Test func figuresAreScikitLearns() {
        let metrics = ClassificationMetrics(
            classes: ["a", "b", "c", "d"], predictions: Array(zip(Self.labels, Self.ranked)).map { ($0, $1) }, topK: 2)
        #expect(metrics.count == 13)
        #expect(abs(metrics.accuracy - 0.5384615384615384) < 1e-15)
        #expect(abs(metrics.topKAccuracy - 0.8461538461538461) < 1e-15)
        #expect(metrics.confusionMatrix == [[3, 1, 0, 0], [0, 2, 1, 0], [1, 1, 2, 0], [2, 0, 0, 0]])
        let expected: [(precision: Double, recall: Double, f1: Double, support: Int)] = [
            (0.5, 0.75, 0.6, 4), (0.5, 0.6666666666666666, 0.5714285714285714, 3),
            (0.6666666666666666, 0.5, 0.5714285714285714, 4), (0, 0, 0, 2),
        ]
        for (ours, theirs) in zip(metrics.perClass, expected) {
            #expect(abs(ours.precision - theirs.precision) < 1e-15, "\(ours)")
            #expect(abs(ours.recall - theirs.recall) < 1e-15, "\(ours)")
            #expect(abs(ours.f1 - theirs.f1) < 1e-15, "\(ours)")
            #expect(ours.support == theirs.support, "\(ours)")
        }
        #expect(metrics.perClass.map(\.name) == ["a", "b", "c", "d"])
        Self.expectAverage(metrics.macroAverage, 0.41666666666666663, 0.47916666666666663, 0.43571428571428567, 13)
        Self.expectAverage(metrics.weightedAverage, 0.47435897435897434, 0.5384615384615384, 0.4923076923076923, 13)
    }

    /// scikit-learn's `precision_recall_fscore_support(average: "macro" / "weighted", zero_division=0)`.
    static func expectAverage(
        _ ours: ClassificationMetrics.AverageMetrics, _ precision: Double, _ recall: Double, _ f1: Double, _ support: Int
    ) {
        #expect(abs(ours.precision - precision) < 1e-15, "\(ours)")
        #expect(abs(ours.recall - recall) < 1e-15, "\(ours)")
        #expect(abs(ours.f1 - f1) < 1e-15, "\(ours)")
        #expect(ours.support == support, "\(ours)")
    }

    @Test func noPhotoGivesZeros() {
        let metrics = ClassificationMetrics(classes: ["a", "b"], predictions: [], topK: 1)
        #expect(metrics.accuracy == 0 && metrics.topKAccuracy == 0 && metrics.count == 0)
        #expect(metrics.confusionMatrix == [[0, 0], [0, 0]])
    }

    /// A first prediction that is no class (index 4 of 4 classes) is wrong: scikit-learn's
    /// figures for labels 0...3 with such predictions.
    @Test func predictionsOutsideTheClassesAreWrong() {
        let predictions = [(0, [0]), (0, [4, 0]), (1, [1]), (1, [4]), (2, [2]), (2, [0]), (3, [4, 3])]
        let metrics = ClassificationMetrics(classes: ["a", "b", "c", "d"], predictions: predictions, topK: 2)
        #expect(abs(metrics.accuracy - 0.42857142857142855) < 1e-15)
        #expect(metrics.confusionMatrix == [[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 0, 0, 0]])
        #expect(metrics.otherPredictions == [1, 1, 0, 1])
        #expect(metrics.perClass.map(\.precision) == [0.5, 1, 1, 0])
        #expect(metrics.perClass.map(\.recall) == [0.5, 0.5, 0.5, 0])
        #expect(metrics.perClass.map(\.support) == [2, 2, 2, 1])
        #expect(abs(metrics.perClass[1].f1 - 0.6666666666666666) < 1e-15)
        #expect(abs(metrics.topKAccuracy - 5.0 / 7) < 1e-15, "the second prediction counts for top-2")
        Self.expectAverage(metrics.macroAverage, 0.625, 0.375, 0.45833333333333326, 7)
        Self.expectAverage(metrics.weightedAverage, 0.7142857142857143, 0.42857142857142855, 0.5238095238095237, 7)
    }
}
