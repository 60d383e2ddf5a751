import Foundation
import ImageTasks
import TasksCommon
import TrainingPipeline
import VisionTasks

/// `vision-tasks evaluate`: measures a classifier on a folder of labelled photos.
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure a classifier on labelled photos: accuracy, per-class precision, recall, F1, confusion matrix.",
        usage: "vision-tasks evaluate --model MODEL [options] FOLDER",
        discussion: """
            FOLDER holds one sub-folder per class, named after it, with that class's photos (the
            layout `train` reads; classes sorted by name). Every photo is classified as `classify`
            does (the model's labels must include every class name) and compared with its folder:
            accuracy, top-k accuracy, per-class precision, recall, F1 and support, and the confusion
            matrix (rows: the true class; columns: the predicted one), as scikit-learn computes them.
            A first prediction that is another label of the model (not a class of the folder) is
            wrong; that label is a class of the figures too, after the folder's, with support 0 and
            the precision of the photos predicted as it (all of a model's labels when it has at
            most 100, else those predicted), so the matrix has a column per label.
            """,
        epilogue: """
            json: {"accuracy", "topK", "topKAccuracy", "count", "classes", "perClass": [{"name",
            "precision", "recall", "f1", "support"}], "confusionMatrix", "skipped": [{"image",
            "error"}], "ignored": [paths], "otherPredictions"}. csv: a record per class,
            `class,precision,recall,f1,support`, its row of the confusion matrix (a column per predicted
            class) and its count of other predictions.
            A photo that cannot be read or classified is reported on stderr ("skipped") and left out of
            the figures; files that are not photos, and files beside the class folders, are reported
            as ignored. --report writes the confusion matrix and a thumbnail of each mistake.
            EXIT STATUS: 0 when the figures were printed (photos skipped included), 1 when the folder
            or the model cannot be used, 2 for a usage error.
            """)

    static let topK = Option<Int>(
        name: "top-k", valueName: "K", help: "Also count a photo right when its class is among the first K predictions.",
        default: 5, defaultDescription: "5", transform: ValueParser.integer("top-k", in: 1...1000))
    static let format = OutputFormat.option(
        allowing: [.table, .json, .csv], help: "table, json (one object) or csv (a record per class).")
    static let report = Option<String?>(
        name: "report", valueName: "FILE.html",
        help: "Also write a self-contained HTML report to FILE.html: the figures, the confusion matrix, and a card "
            + "(thumbnail, true class, prediction) per mistake and per skipped photo.")

    static let optionTable = [
        ClassifierOptionGroup.model.definition, topK.definition, ClassifierOptionGroup.threads.definition, format.definition,
        report.definition, StandardOptions.verbose.definition, DecodingMode.option.definition,
        BatchOptionGroup.folderJobs.definition, BatchOptionGroup.noProgress.definition,
    ]

    let model: String
    let topK: Int
    let threads: Int
    let threadsGiven: Bool
    let format: OutputFormat
    let report: String?
    let verbose: Bool
    let decoding: DecodingMode
    let jobs: Int
    let progress: Bool
    let folder: FileSystemPath

    init(_ parsed: ParsedArguments) throws(UsageError) {
        model = try parsed.required(ClassifierOptionGroup.model)
        topK = try parsed.value(Self.topK)
        threads = try parsed.value(ClassifierOptionGroup.threads)
        threadsGiven = parsed.contains(ClassifierOptionGroup.threads.definition)
        format = try parsed.value(Self.format)
        report = try parsed.value(Self.report)
        verbose = parsed.isSet(StandardOptions.verbose)
        decoding = try parsed.value(DecodingMode.option)
        jobs = try parsed.value(BatchOptionGroup.folderJobs)
        progress = !parsed.isSet(BatchOptionGroup.noProgress)
        guard parsed.positionals.count == 1, let folder = parsed.positionals.first else {
            throw UsageError("give one FOLDER of class folders, got \(parsed.positionals.count) arguments")
        }
        self.folder = folder.path
    }

    func run() throws(UsageError) -> Int32 {
        let dataset: LabeledImageFolder
        do throws(TasksError) {
            dataset = try LabeledImageFolder(folder, keepingEmptyClasses: true)
        } catch {
            StandardStreams.reportError(error)
            return 1
        }
        for path in dataset.ignored {
            StandardStreams.warn(
                "\(TableText.escaped(path.description)): ignored: not a .jpg, .jpeg, .png or .webp photo in a class folder")
        }
        SkippedFolders.warn(dataset.skippedFolders)
        for name in dataset.emptyClasses {
            StandardStreams.warn(
                "warning: the class folder '\(TableText.escaped(name))' has no .jpg, .jpeg, .png or .webp photo: "
                    + "it is counted as a class with support 0")
        }
        var evaluation = DatasetEvaluation(folder: dataset, topK: topK)
        let workers = max(1, min(jobs, dataset.examples.count))
        let processing = ImageProcessing(fastDecoding: decoding == .fast)
        let made = ModelLoading.load(verbose: verbose) { () throws(TasksError) in
            try (0..<workers).map { _ throws(TasksError) in
                try ClassificationTask(
                    options: evaluation.options(model: model, threads: workers > 1 && !threadsGiven ? 1 : threads),
                    processing: processing)
            }
        }
        guard let tasks = made, let first = tasks.first else { return 1 }
        do throws(TasksError) {
            try evaluation.checkClasses(of: first, model: model)
        } catch {
            StandardStreams.reportError(error)
            return 1
        }
        // After the model's checks: a run refused at once gets its error alone.
        let duplicates = PhotoDuplicates(dataset.examples)
        for group in duplicates.paths(duplicates.conflicting, in: dataset.examples) {
            StandardStreams.warn(
                "warning: identical photos filed under different classes (conflicting labels): "
                    + group.map(TableText.escaped).joined(separator: ", "))
        }
        var progressLine = ProgressLine(total: dataset.examples.count, requested: progress)
        var done = 0
        evaluation.run(tasks: tasks) { outcome in
            progressLine.clear()
            if case .failure(let error) = outcome.result {
                let path = outcome.path.description
                StandardStreams.warn("\(TableText.escaped(path)): skipped: \(ErrorText.describe(error, imageFile: path))")
            }
            done += 1
            progressLine.update(done: done)
        }
        progressLine.clear()
        let printed = EvaluationPrinter(evaluation: evaluation).print(format)
        let reported = report.map { EvaluationReport.write(evaluation, model: model, to: $0) } ?? true
        return printed && reported ? 0 : 1
    }
}
