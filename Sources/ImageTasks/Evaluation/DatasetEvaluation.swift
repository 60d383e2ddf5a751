import Foundation
import TasksCommon
import VisionTasks

/// `evaluate`: a classifier run over a `LabeledImageFolder`, collecting what
/// `ClassificationMetrics` needs and the mistakes. The model must know every class; it may know
/// more categories, and a photo whose first prediction is one of them is wrong (a folder with
/// one class cannot score 100 % by construction).
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
    /// Each counted photo's class and its predicted classes, best first, in folder order.
    package private(set) var predictions: [(label: Int, ranked: [Int])] = []
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

    /// Checks that the model knows every class of the folder.
    /// - Throws: `TasksError` invalidArgument naming the model and the classes it lacks.
    package func checkClasses(of task: ClassificationTask, model: String) throws(TasksError) {
        let known = Set(task.classifier.categoryNames)
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
        let classIndex = Dictionary(uniqueKeysWithValues: folder.classes.enumerated().map { ($1, $0) })
        let source = ImageSource(origin: .arguments(folder.examples.map(\.input)))
        _ = BatchRunner.run(source: source, tasks: tasks) { outcome in
            let label = labels[outcome.path.description] ?? 0
            switch outcome.result {
            case .success(let output):
                let categories = output.heads.first?.categories ?? []
                let other = folder.classes.count
                let ranked = categories.map { $0.categoryName.flatMap { classIndex[$0] } ?? other }
                predictions.append((label, ranked))
                if ranked.first != label {
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

    /// The figures of the photos classified so far.
    package var metrics: ClassificationMetrics {
        ClassificationMetrics(classes: folder.classes, predictions: predictions, topK: topK)
    }
}
