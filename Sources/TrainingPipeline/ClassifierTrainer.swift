import FileSystem
import FineTuning
import Foundation
import GraphSurgery
import HeadFitting
import ImageTasks
import TFLiteMetadata
import TasksCommon
import VisionTasks

/// Where the validation photos come from.
package enum ValidationSource: Sendable, Equatable {
    /// None: only the training accuracy is measured.
    case none
    /// A folder of the same classes (`--validation DIR`).
    case folder(FileSystemPath)
    /// A seeded, per-class share of the training folder (`--validation-split F`).
    case split(Double)
}

/// What one `train` run does: the data, the base, the head's objective, the export.
package struct TrainingConfiguration: Sendable {
    package var data: FileSystemPath
    package var validation: ValidationSource = .none
    /// Seeds the validation split and the augmentation's crops.
    package var seed: UInt64 = 0
    package var base: String
    /// The base's feature tensor by name or index; nil finds it (`ClassifierHeadAppender.featureTensor(of:)`).
    package var featureTensor: String?
    /// λ of the objective; nil chooses it on the validation photos when there are some
    /// (`PenaltySearch`), else 1/N, scikit-learn's `LogisticRegression(C=1)`.
    package var l2Strength: Double?
    /// Choose λ on the validation photos (`PenaltySearch`: `--l2 auto`) instead of `l2Strength`,
    /// and refuse to run without them.
    package var searchesL2 = false
    package var labelSmoothing: Double = 0
    /// The most L-BFGS iterations (each a pass over all the features: an epoch).
    package var maxIterations: Int = 10_000
    /// The fit has converged when the gradient's norm is at most this times max(1, |(W, b)|)
    /// (liblbfgs's epsilon). 1e-6 gives the validation accuracy of 1e-8 on clothing-small in a third of the iterations.
    package var gradientTolerance = 1e-6
    /// Where `train` writes the model; nil to fit only (`fit`, then `ClassifierExport`).
    package var output: URL?
    package var quantize = false
    /// Train on views of each photo too (flipped, cropped, with exposure and angle changes:
    /// `Augmentation`), seeded by its own seed, else by `seed`; nil trains on the photos as they are.
    package var augmentation: Augmentation?
    package var name: String
    package var version = "1"
    package var description: String
    /// The feature cache's root; nil computes every feature.
    package var cacheRoot: URL?
    package var workers = 1
    package var threads = 1
    /// Trained layers instead of the frozen head (`--fine-tune`, `--fine-tune-from`,
    /// `--hidden-units`): the base's last blocks and the head by mini-batch descent (`FineTuner`);
    /// nil fits a softmax head on the frozen features with L-BFGS.
    package var fineTuning: FineTuningSettings?

    package init(data: FileSystemPath, base: String, output: URL?, name: String, description: String) {
        self.data = data
        self.base = base
        self.output = output
        self.name = name
        self.description = description
    }
}

/// What a run did and measured (`train`'s summary; `--format json` prints it).
package struct TrainingReport: Codable, Sendable {
    package struct Skipped: Codable, Sendable {
        package let image: String
        package let error: ErrorRecord
    }

    package var classes: [String] = []
    /// Training photos per class (after the split), by class.
    package var trainingCounts: [Int] = []
    /// The views of each training photo (`--augment` and its options, the seed set); nil without.
    package var augmentation: Augmentation?
    /// The rows the head was fitted on: one per training photo, `Augmentation.views` when augmenting.
    package var trainingRows = 0
    package var validationCount = 0
    /// Validation photos that are training photos too (the same file under any name, or a copy:
    /// the same bytes): their accuracy flatters the model.
    package var sharedValidationPhotos = 0
    package var skipped: [Skipped] = []
    /// The groups of byte-identical photos in the data folder, by path (a split keeps each group
    /// on one side).
    package var identicalPhotos: [[String]] = []
    /// The groups of identical photos filed under more than one class, by path.
    package var conflictingLabels: [[String]] = []
    package var ignored: [String] = []
    /// The hidden and metadata folders not searched in the data and validation folders
    /// (".ipynb_checkpoints", "__MACOSX", ...: `DirectoryWalker.isMetadataFolder`).
    package var skippedFolders: [String] = []
    package var featureCount = 0
    package var l2Strength = 0.0
    package var iterations = 0
    package var objective = 0.0
    /// ‖∇L‖ at the head the L-BFGS fit ended on; nil with trained layers (`fineTuning`), whose
    /// epochs of Adam or SGD have no such test.
    package var gradientNorm: Double?
    /// One λ tried by `--l2 auto`, with its validation figures.
    package struct PenaltyTrial: Codable, Sendable, Equatable {
        package let l2: Double
        package let validationAccuracy: Double
        /// The mean cross-entropy of the validation photos.
        package let validationLoss: Double
    }
    /// With `--l2 auto`: each λ tried, in order; `l2Strength` is the one chosen. Empty otherwise.
    package var l2Grid: [PenaltyTrial] = []
    package var stopReason = ""
    /// Whether a convergence test stopped the L-BFGS fit (else it stopped at `maxIterations` or
    /// where the line search could go no further, and the model is the last point reached); nil
    /// with trained layers, which run their epochs (`stopReason` says how they ended).
    package var converged: Bool?
    package var trainingAccuracy = 0.0
    /// nil without validation photos.
    package var validationAccuracy: Double?
    /// With `quantize`: of the validation photos (the training photos without validation), how
    /// many get the same UINT8 score for their two best classes, which the quantized model then
    /// cannot rank (a strong L2 penalty flattens the scores); nil without `quantize`.
    package var quantizedTies: Int?
    /// The photos `quantizedTies` counts among.
    package var quantizedTiesChecked = 0
    /// With `quantize` and trained layers: both models' accuracy on the same photos.
    package var quantizedCheck: QuantizedModelCheck?
    /// With trained layers (`TrainingConfiguration.fineTuning`): the cut, the settings, each epoch.
    package var fineTuning: FineTuningReport?
    /// The views (photos, and their augmented views) whose features were read from the cache,
    /// and those computed (then kept in it).
    package var cachedFeatures = 0
    package var computedFeatures = 0
    package var featureSeconds = 0.0
    package var fitSeconds = 0.0
    package var totalSeconds = 0.0
    package var output = ""
}

/// Progress of a run, for people: each photo's features, then each iteration of the fit (or
/// each epoch of fine-tuning, of at most `of`).
package enum TrainingEvent {
    case features(done: Int, total: Int, outcome: ImageOutcome<EmbeddingOutput>)
    case iteration(TrainingProgress)
    case epoch(EpochRecord, of: Int)
}

/// `train`: features of the photos from the frozen base (cached), a softmax head fitted on
/// them to the optimum of its convex objective (`SoftmaxRegression.fit`), measured, and
/// exported (`ClassifierExport`).
package enum ClassifierTrainer {
    /// Runs `configuration`.
    /// - Throws: `TasksError`: the folders' errors (`LabeledImageFolder`), a validation folder
    ///   whose classes differ, fewer than two classes, the base's and the fit's errors, the export's.
    /// - Parameter progress: called on the calling thread after each photo and each iteration.
    package static func train(
        _ configuration: TrainingConfiguration, progress: (TrainingEvent) -> Void = { _ in }
    ) throws(TasksError) -> TrainingReport {
        let start = ContinuousClock.now
        if let output = configuration.output { try checkOutput(output, configuration) }
        var (trained, report) = try fit(configuration, progress: progress)
        if let output = configuration.output {
            try ClassifierExport.write(trained, to: output, quantize: configuration.quantize)
            report.output = output.path
        }
        report.totalSeconds = seconds(since: start)
        return report
    }

    /// `train` without the export: the features, the fit and its figures.
    /// - Throws: as `train`, but nothing about the output.
    package static func fit(
        _ configuration: TrainingConfiguration, progress: (TrainingEvent) -> Void = { _ in }
    ) throws(TasksError) -> (TrainedClassifier, TrainingReport) {
        if let settings = configuration.fineTuning { return try FineTunedFit.fit(configuration, settings, progress: progress) }
        let start = ContinuousClock.now
        let photos = try RunPhotos(configuration)
        var report = photos.report
        let extractor = try FeatureExtractor(base: configuration.base, featureTensor: configuration.featureTensor)
        let (trainingFeatures, validationFeatures) = try photos.features(
            extractor, configuration, since: start, report: &report, progress: progress)
        // The fit's time includes the features' moments, which the training set computes for it.
        let fitStart = ContinuousClock.now
        // The float32 rows themselves, not a double copy: the fit converts them block by block.
        let data = try TrainingSet(
            rows: trainingFeatures.rows, labels: trainingFeatures.labels, classCount: photos.folder.classes.count)
        var λ = configuration.l2Strength ?? 1 / Double(data.count)
        let options = SoftmaxRegressionOptions(
            l2Strength: λ, labelSmoothing: configuration.labelSmoothing, maxIterations: configuration.maxIterations,
            gradientTolerance: configuration.gradientTolerance)
        let fit: SoftmaxRegressionFit
        // The penalty is chosen on the validation photos when asked, or when none is given and there are some.
        if configuration.searchesL2 || (configuration.l2Strength == nil && !validationFeatures.rows.isEmpty) {
            (λ, fit, report.l2Grid) = try PenaltySearch.choose(data, validation: validationFeatures, options: options)
        } else {
            fit = try SoftmaxRegression.fit(data, options: options) { progress(.iteration($0)) }
        }
        report.fitSeconds = seconds(since: fitStart)
        report.l2Strength = λ
        report.iterations = fit.iterations
        report.objective = fit.objective
        report.gradientNorm = fit.gradientNorm
        report.stopReason = fit.stopReason.description
        report.converged = fit.stopReason.isConvergence
        report.trainingAccuracy = try accuracy(fit.model, trainingFeatures)
        if !validationFeatures.rows.isEmpty {
            report.validationAccuracy = try accuracy(fit.model, validationFeatures)
        }
        if configuration.quantize {
            let checked = validationFeatures.rows.isEmpty ? trainingFeatures : validationFeatures
            report.quantizedTies = try quantizedTies(fit.model, checked)
            report.quantizedTiesChecked = checked.rows.count
        }

        let head = DenseHead(weights: fit.model.weights.values.map(Float.init), bias: fit.model.bias.map(Float.init))
        let trained = TrainedClassifier(
            extractor: extractor, layers: .head(head), classes: photos.folder.classes, name: configuration.name,
            version: configuration.version, description: configuration.description)
        report.totalSeconds = seconds(since: start)
        return (trained, report)
    }

    /// Refuses, before any work, an output that cannot be a new folder
    /// (`AtomicWrite.checkNewFolder`: it exists, or its parent is missing or not writable) or
    /// that is inside the data, through links too (it would become a class).
    private static func checkOutput(_ url: URL, _ configuration: TrainingConfiguration) throws(TasksError) {
        let output = try AtomicWrite.checkNewFolder(FileSystemPath(url.path), kind: ClassifierExport.outputKind)
        var folders = [configuration.data]
        if case .folder(let validation) = configuration.validation { folders.append(validation) }
        for folder in folders {
            guard let data = try? FileTree.resolved(folder) else { continue }
            // Resolved paths end in "/" only for the root.
            let inside = data.bytes.last == UInt8(ascii: "/") ? data.bytes : data.bytes + [UInt8(ascii: "/")]
            if output == data || output.bytes.starts(with: inside) {
                throw .invalidArgument(
                    "The output folder is inside the photos' folder \(folder.description); it would be read as a class.",
                    subject: .file(url.path))
            }
        }
    }

    private static func accuracy(_ model: SoftmaxRegression, _ set: FeatureSet) throws(TasksError) -> Double {
        guard !set.rows.isEmpty else { return 0 }
        var right = 0
        try forEachBlock(of: set, model: model) { probabilities, labels in
            for (row, label) in labels.enumerated() {
                let scores = Array(probabilities.row(row))
                if scores.indices.max(by: { scores[$0] < scores[$1] }) == label { right += 1 }
            }
        }
        return Double(right) / Double(set.rows.count)
    }

    /// The rows whose two best scores quantize to the same UINT8 value (scale 1/256, as the
    /// quantized export's output; 1 becomes 255).
    private static func quantizedTies(_ model: SoftmaxRegression, _ set: FeatureSet) throws(TasksError) -> Int {
        var ties = 0
        try forEachBlock(of: set, model: model) { scores, labels in
            ties +=
                (0..<labels.count).filter { row in
                    let best = scores.row(row).map { min(255, ($0 * 256).rounded()) }.sorted(by: >)
                    return best.count >= 2 && best[0] == best[1]
                }.count
        }
        return ties
    }

    /// The model's probabilities for `set`'s rows, 256 at a time (a double copy of a block, not
    /// of every row), with each block's labels.
    private static func forEachBlock(
        of set: FeatureSet, model: SoftmaxRegression, _ body: (Matrix, ArraySlice<Int>) -> Void
    ) throws(TasksError) {
        for start in stride(from: 0, to: set.rows.count, by: 256) {
            let rows = start..<min(start + 256, set.rows.count)
            body(try model.probabilities(for: try Matrix(rows: Array(set.rows[rows]))), set.labels[rows])
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return elapsed / .seconds(1)
    }
}
