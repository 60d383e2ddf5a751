import Foundation
import TasksCommon
import VisionTasks

/// `evaluate`: a classifier run over a `LabeledImageFolder`, collecting what
/// `ClassificationMetrics` needs and the mistakes. The model must know every class; it may know
/// more categories, and a photo whose first prediction is one of them is wrong (a folder with
/// one class cannot score 100 % by construction). Those categories are classes of the figures
/// too, with support 0 (scikit-learn's `labels=` the model's labels), so that the confusion
/// matrix has a column per label and a precision for each: every one of a model of at most
/// `allLabelsLimit` labels (a custom model's), else those some photo was predicted as (an
/// ImageNet model's thousand would be noise).
package struct DatasetEvaluation {
    /// A photo whose first prediction is not its class.
    package struct Mistake: Sendable, Equatable {
        package let image: FileSystemPath
        package let label: Int
        /// The first prediction's category name (a class, or another category of the model).
        package let predicted: String
        /// The score of the (wrong) first prediction.
        package let score: Float
    }

    package let folder: LabeledImageFolder
    /// The k of top-k accuracy: the classifier keeps this many results.
    package let topK: Int
    /// Each counted photo's class and its predicted categories by name, best first, in folder order.
    private var predictions: [(label: Int, ranked: [String])] = []
    /// The model's labels, in its order (`checkClasses`).
    private var modelLabels: [String] = []
    /// The most labels a model may have for all of them to be listed, absent from the folder or not.
    package static let allLabelsLimit = 100
    /// The photos that could not be classified, with why: reported and left out of the figures.
    package private(set) var skipped: [(image: FileSystemPath, error: TasksError)] = []
    package private(set) var mistakes: [Mistake] = []

    /// - Parameter topK: at least 1; at most the number of classes (larger values are lowered).
    package init(folder: LabeledImageFolder, topK: Int) {
        self.folder = folder
        self.topK = max(1, min(topK, folder.classes.count))
    }

    /// The options of one classifier of the run: the model, its threads, `topK` results.
    package func options(model: String, threads: Int) -> ImageClassifierOptions {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = model
        options.baseOptions.threadCount = threads
        options.maxResults = topK
        return options
    }

    /// Checks that the model knows every class of the folder, and keeps its labels.
    /// - Throws: `TasksError` invalidArgument naming the model and the classes it lacks.
    package mutating func checkClasses(of task: ClassificationTask, model: String) throws(TasksError) {
        modelLabels = task.classifier.categoryNames
        let known = Set(modelLabels)
        let missing = folder.classes.filter { !known.contains($0) }
        guard missing.isEmpty else {
            throw .invalidArgument(
                "The model has no category named \(missing.map { "'\($0)'" }.joined(separator: ", ")): "
                    + "its labels must include every class folder's name.", subject: .file(model))
        }
    }

    /// Classifies every photo of the folder with `tasks` (one worker each).
    /// - Parameter each: called on the calling thread after each photo, in folder order.
    package mutating func run(tasks: [ClassificationTask], each: (ImageOutcome<ClassificationOutput>) -> Void) {
        let labels = Dictionary(uniqueKeysWithValues: folder.examples.map { ($0.input.path.description, $0.label) })
        let source = ImageSource(origin: .arguments(folder.examples.map(\.input)))
        _ = BatchRunner.run(source: source, tasks: tasks) { outcome in
            let label = labels[outcome.path.description] ?? 0
            switch outcome.result {
            case .success(let output):
                let categories = output.heads.first?.categories ?? []
                let ranked = categories.map { $0.categoryName ?? "#\($0.index)" }
                predictions.append((label, ranked))
                if ranked.first != folder.classes[label] {
                    let name = categories.first.map { $0.categoryName ?? "#\($0.index)" } ?? "(no prediction)"
                    mistakes.append(
                        Mistake(image: outcome.path, label: label, predicted: name, score: categories.first?.score ?? 0))
                }
            case .failure(let error):
                skipped.append((outcome.path, error))
            }
            each(outcome)
        }
    }

    /// The model's labels that are no class of the folder and are classes of the figures (see
    /// above), in the model's order.
    package var absentClasses: [String] {
        let folderClasses = Set(folder.classes)
        let absent = modelLabels.filter { !folderClasses.contains($0) }
        guard modelLabels.count > Self.allLabelsLimit else { return absent }
        let predicted = Set(predictions.compactMap(\.ranked.first))
        return absent.filter(predicted.contains)
    }

    /// The figures of the photos classified so far: the folder's classes, then `absentClasses`.
    package var metrics: ClassificationMetrics {
        let classes = folder.classes + absentClasses
        let index = Dictionary(classes.enumerated().map { ($1, $0) }) { first, _ in first }
        let ranked = predictions.map { prediction in
            (prediction.label, prediction.ranked.map { index[$0] ?? classes.count })
        }
        return ClassificationMetrics(classes: classes, predictions: ranked, topK: topK)
    }
}
