import Foundation
import ImageTasks

/// How a classifier did on labelled photos, as scikit-learn computes it: accuracy, top-k
/// accuracy, per-class precision, recall, F1 and support, their macro and weighted averages
/// (`classification_report`'s rows), and the confusion matrix.
public struct ImageClassifierMetrics: Sendable, Equatable {
    /// One class's figures.
    public struct ClassMetrics: Sendable, Equatable {
        /// The class's name (its folder's).
        public let name: String
        /// Of the photos predicted as this class, the share that are (0 when none is).
        public let precision: Double
        /// Of the photos of this class, the share predicted as it (0 when it has none).
        public let recall: Double
        /// The harmonic mean of precision and recall (0 when both are).
        public let f1: Double
        /// The photos of this class.
        public let support: Int
    }

    /// The class folders' names, sorted, then the model's labels that no class folder has
    /// (support 0; their precision is that of the photos predicted as them): all of them for a
    /// model of at most 100 labels, else those some photo was predicted as.
    public let classes: [String]
    /// The photos measured (those that could be classified).
    public let count: Int
    /// The photos left out because they could not be read or classified.
    public let skipped: Int
    /// The share of photos whose first prediction is their class.
    public let accuracy: Double
    /// The k of `topKAccuracy`.
    public let topK: Int
    /// The share of photos whose class is among their first `topK` predictions.
    public let topKAccuracy: Double
    /// Each class's figures, in `classes` order.
    public let perClass: [ClassMetrics]
    /// The classes' unweighted mean precision, recall and F1 (scikit-learn's "macro avg"; its
    /// `name` is "macro avg", its support every photo's).
    public let macroAverage: ClassMetrics
    /// The classes' mean weighted by support (scikit-learn's "weighted avg").
    public let weightedAverage: ClassMetrics
    /// `confusionMatrix[true][predicted]`, in `classes` order.
    public let confusionMatrix: [[Int]]
    /// Per true class, the photos whose first prediction is a category of the model that is not
    /// in `classes`.
    public let otherPredictions: [Int]

    init(_ metrics: ClassificationMetrics, skipped: Int) {
        classes = metrics.classes
        count = metrics.count
        self.skipped = skipped
        accuracy = metrics.accuracy
        topK = metrics.topK
        topKAccuracy = metrics.topKAccuracy
        perClass = metrics.perClass.map {
            ClassMetrics(name: $0.name, precision: $0.precision, recall: $0.recall, f1: $0.f1, support: $0.support)
        }
        let average = { (name: String, figures: ClassificationMetrics.AverageMetrics) in
            ClassMetrics(
                name: name, precision: figures.precision, recall: figures.recall, f1: figures.f1, support: figures.support)
        }
        macroAverage = average("macro avg", metrics.macroAverage)
        weightedAverage = average("weighted avg", metrics.weightedAverage)
        confusionMatrix = metrics.confusionMatrix
        otherPredictions = metrics.otherPredictions
    }
}
