import Foundation

/// How well a classifier does on labelled photos: accuracy, top-k accuracy, per-class
/// precision, recall, F1 and support, and the confusion matrix, as scikit-learn's
/// `accuracy_score`, `top_k_accuracy_score`, `precision_recall_fscore_support` (a ratio with a
/// zero denominator is 0, its `zero_division` default) and `confusion_matrix` compute them.
///
/// JSON (`evaluate --format json`): `{"classes", "count", "accuracy", "topK", "topKAccuracy",
/// "perClass": [{"name", "precision", "recall", "f1", "support"}], "macroAverage",
/// "weightedAverage" (`{"precision", "recall", "f1", "support"}`), "confusionMatrix",
/// "otherPredictions"}`, the matrix's rows the true classes and its columns the predicted ones,
/// in `classes` order; `otherPredictions[c]` counts the photos of class c whose first
/// prediction is none of the classes (a category of the model that is no class of the folder):
/// wrong, and in the recall's denominator.
package struct ClassificationMetrics: Codable, Equatable, Sendable {
    /// One class's figures.
    package struct ClassMetrics: Codable, Equatable, Sendable {
        package let name: String
        /// Of the photos predicted as this class, the share that are (0 when none is).
        package let precision: Double
        /// Of the photos of this class, the share predicted as it (0 when it has none).
        package let recall: Double
        /// The harmonic mean of precision and recall (0 when both are).
        package let f1: Double
        /// The photos of this class.
        package let support: Int
    }

    /// An average of the classes' figures: scikit-learn's `classification_report` rows "macro
    /// avg" (each class counts once) and "weighted avg" (each class by its support), as
    /// `precision_recall_fscore_support(average:)` computes them (its F1 the average of the
    /// classes' F1, not the F1 of the averages).
    package struct AverageMetrics: Codable, Equatable, Sendable {
        package let precision: Double
        package let recall: Double
        package let f1: Double
        /// The photos counted (every class's support).
        package let support: Int

        /// The average of `classes` with `weights` (nil: each class once); zeros when they weigh nothing.
        init(_ classes: [ClassMetrics], weights: [Double]?) {
            let weights = weights ?? classes.map { _ in 1 }
            let total = weights.reduce(0, +)
            func mean(_ value: (ClassMetrics) -> Double) -> Double {
                total == 0 ? 0 : zip(classes, weights).reduce(0) { $0 + value($1.0) * $1.1 } / total
            }
            precision = mean(\.precision)
            recall = mean(\.recall)
            f1 = mean(\.f1)
            support = classes.reduce(0) { $0 + $1.support }
        }
    }

    package let classes: [String]
    /// The photos counted (those that could be classified).
    package let count: Int
    /// The share of photos whose first prediction is their class.
    package let accuracy: Double
    /// The k of `topKAccuracy`.
    package let topK: Int
    /// The share of photos whose class is among their first `topK` predictions.
    package let topKAccuracy: Double
    package let perClass: [ClassMetrics]
    /// The classes' unweighted mean (scikit-learn's "macro avg").
    package let macroAverage: AverageMetrics
    /// The classes' mean weighted by their support (scikit-learn's "weighted avg").
    package let weightedAverage: AverageMetrics
    /// `confusionMatrix[true][predicted]`: photos of class `true` predicted as `predicted`.
    package let confusionMatrix: [[Int]]
    /// Per true class, the photos predicted as none of the classes.
    package let otherPredictions: [Int]

    /// The figures of `predictions`: each photo's class and its predicted classes, best first
    /// (the first is the prediction), `classes.count` standing for a category that is no class.
    /// A photo with no prediction counts as predicted as no class.
    /// - Precondition: every label is in `0..<classes.count`, every prediction in
    ///   `0...classes.count`; `topK` ≥ 1.
    package init(classes: [String], predictions: [(label: Int, ranked: [Int])], topK: Int) {
        let k = classes.count
        var matrix = Array(repeating: Array(repeating: 0, count: k), count: k)
        var other = Array(repeating: 0, count: k)
        var hits = 0
        for prediction in predictions {
            if let first = prediction.ranked.first, first < k {
                matrix[prediction.label][first] += 1
            } else {
                other[prediction.label] += 1
            }
            if prediction.ranked.prefix(topK).contains(prediction.label) { hits += 1 }
        }
        let correct = (0..<k).reduce(0) { $0 + matrix[$1][$1] }
        let count = predictions.count
        self.classes = classes
        self.count = count
        accuracy = count == 0 ? 0 : Double(correct) / Double(count)
        self.topK = topK
        topKAccuracy = count == 0 ? 0 : Double(hits) / Double(count)
        confusionMatrix = matrix
        otherPredictions = other
        perClass = (0..<k).map { c in
            let support = matrix[c].reduce(0, +) + other[c]
            let predicted = matrix.reduce(0) { $0 + $1[c] }
            let precision = Self.ratio(matrix[c][c], predicted)
            let recall = Self.ratio(matrix[c][c], support)
            let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
            return ClassMetrics(name: classes[c], precision: precision, recall: recall, f1: f1, support: support)
        }
        macroAverage = AverageMetrics(perClass, weights: nil)
        weightedAverage = AverageMetrics(perClass, weights: perClass.map { Double($0.support) })
    }

    private static func ratio(_ numerator: Int, _ denominator: Int) -> Double {
        denominator == 0 ? 0 : Double(numerator) / Double(denominator)
    }
}
