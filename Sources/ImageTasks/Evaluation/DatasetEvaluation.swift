import Foundation
import TasksCommon
import VisionTasks

/// `evaluate`: a classifier run over a `LabeledImageFolder`, its categories restricted to the
/// folder's classes (MediaPipe's `categoryAllowlist`: the model may know more categories, and
/// must know every class), collecting what `ClassificationMetrics` needs and the mistakes.
package struct DatasetEvaluation {
    /// A photo whose first prediction is not its class.
    package struct Mistake: Sendable, Equatable {
        package let image: FileSystemPath
        package let label: Int
        package let predicted: Int
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

    /// - Parameter topK: at least 1; at most the number of classes (smaller values are kept).
    package init(folder: LabeledImageFolder, topK: Int) {
        self.folder = folder
        self.topK = max(1, min(topK, folder.classes.count))
    }

    /// The options of one classifier of the run: the model, its threads, the folder's classes
    /// as the allowlist, `topK` results.
    package func options(model: String, threads: Int) -> ImageClassifierOptions {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = model
        options.baseOptions.threadCount = threads
        options.categoryAllowlist = folder.classes
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
                let ranked = categories.compactMap { $0.categoryName.flatMap { classIndex[$0] } }
                predictions.append((label, ranked))
                if let first = ranked.first, first != label, let score = categories.first?.score {
                    mistakes.append(Mistake(image: outcome.path, label: label, predicted: first, score: score))
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
