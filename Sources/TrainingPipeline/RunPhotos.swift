import FileSystem
import Foundation
import Glibc
import ImageTasks
import TasksCommon
import VisionTasks

/// The photos of one `train` run, read and split into training and validation photos, and
/// their features from an extractor (cached): the steps every fit shares (the frozen head's
/// and fine-tuning's).
struct RunPhotos {
    let folder: LabeledImageFolder
    let training: [LabeledImageFolder.Example]
    let validation: [LabeledImageFolder.Example]
    /// What reading the folders found: the classes, ignored files, validation photos that are
    /// training photos too.
    let report: TrainingReport

    /// Reads the data folder (and the validation folder) of `configuration`.
    /// - Throws: `TasksError`: the folders' errors (`LabeledImageFolder`), a validation folder
    ///   whose classes differ, fewer than two classes.
    init(_ configuration: TrainingConfiguration) throws(TasksError) {
        folder = try LabeledImageFolder(configuration.data)
        guard folder.classes.count >= 2 else {
            throw .invalidArgument(
                "The folder has one class ('\(folder.classes[0])'); a classifier needs at least two class folders.",
                subject: .file(configuration.data.description))
        }
        let duplicates = PhotoDuplicates(folder.examples)
        let other: LabeledImageFolder?
        (training, validation, other) = try Self.examples(folder, configuration, digests: duplicates.digests)
        var report = TrainingReport()
        report.classes = folder.classes
        report.sharedValidationPhotos = Self.sharedPhotos(training, validation)
        report.ignored = (folder.ignored + (other?.ignored ?? [])).map(\.description)
        report.identicalPhotos = duplicates.paths(duplicates.groups, in: folder.examples)
        report.conflictingLabels = duplicates.paths(duplicates.conflicting, in: folder.examples)
        report.skippedFolders = (folder.skippedFolders + (other?.skippedFolders ?? [])).map(\.description)
        self.report = report
    }

    /// The features of the training photos (with `Augmentation`'s views when the configuration
    /// augments) and of the validation photos, from `extractor`, read from and kept in the cache.
    /// Fills the report's photo counts, skipped photos, feature count and feature time.
    /// - Throws: `TasksError` when the extractor cannot run, or no training photo of a class could be read.
    func features(
        _ extractor: FeatureExtractor, _ configuration: TrainingConfiguration, since start: ContinuousClock.Instant,
        report: inout TrainingReport, progress: (TrainingEvent) -> Void
    ) throws(TasksError) -> (training: FeatureSet, validation: FeatureSet) {
        let cache = configuration.cacheRoot.map {
            FeatureCache(root: $0, identity: extractor.identity, dimension: extractor.dimension)
        }
        cache?.removeInterruptedWrites()
        let workers = max(1, min(configuration.workers, training.count + validation.count))
        let counts = FeatureCounts()
        let tasks = try (0..<workers).map { _ throws(TasksError) in
            CachedFeatureTask(extractor: try extractor.task(threads: configuration.threads), cache: cache, counts: counts)
        }
        var done = 0
        let total = training.count + validation.count
        let each = { (outcome: ImageOutcome<EmbeddingOutput>) in
            done += 1
            progress(.features(done: done, total: total, outcome: outcome))
        }
        let augmentation = configuration.augmentation.map { views in
            var seeded = views
            seeded.seed = views.seed ?? configuration.seed
            return seeded
        }
        report.augmentation = augmentation
        let trainingFeatures = FeatureSet.extract(training, tasks: tasks.map { $0.augmenting(augmentation) }, each: each)
        let validationFeatures = FeatureSet.extract(validation, tasks: tasks, each: each)
        report.skipped = (trainingFeatures.skipped + validationFeatures.skipped).map {
            TrainingReport.Skipped(image: $0.image.description, error: ErrorRecord($0.error))
        }
        report.featureSeconds = ClassifierTrainer.seconds(since: start)
        (report.cachedFeatures, report.computedFeatures) = counts.values
        report.featureCount = extractor.dimension
        try count(trainingFeatures, validationFeatures, configuration, into: &report)
        return (trainingFeatures, validationFeatures)
    }

    /// The photos per class, the rows and the validation photos, into `report`.
    /// - Throws: `TasksError` when no training photo of a class could be read.
    private func count(
        _ training: FeatureSet, _ validation: FeatureSet, _ configuration: TrainingConfiguration,
        into report: inout TrainingReport
    ) throws(TasksError) {
        let photos = Dictionary(grouping: zip(training.images.map(\.description), training.labels), by: \.1)
            .mapValues { Set($0.map(\.0)).count }
        report.trainingCounts = (0..<folder.classes.count).map { photos[$0] ?? 0 }
        if let empty = report.trainingCounts.firstIndex(of: 0) {
            throw .invalidArgument(
                "No training photo of the class '\(folder.classes[empty])' could be read (see the photos skipped above); "
                    + "a class needs at least one.", subject: .file(configuration.data.description))
        }
        report.trainingRows = training.rows.count
        report.validationCount = validation.rows.count
    }

    /// The training and validation photos, and the validation folder when there is one.
    /// - Parameter digests: each example's content digest, so that a split keeps copies together.
    private static func examples(
        _ folder: LabeledImageFolder, _ configuration: TrainingConfiguration, digests: [String?]
    ) throws(TasksError) -> ([LabeledImageFolder.Example], [LabeledImageFolder.Example], LabeledImageFolder?) {
        switch configuration.validation {
        case .none:
            return (folder.examples, [], nil)
        case .split(let fraction):
            let (training, validation) = ValidationSplit.split(
                folder.examples, fraction: fraction, seed: configuration.seed, digests: digests)
            return (training, validation, nil)
        case .folder(let path):
            let other = try LabeledImageFolder(path)
            guard other.classes == folder.classes else {
                throw .invalidArgument(
                    "The validation folder's classes (\(other.classes.joined(separator: ", "))) are not the training "
                        + "folder's (\(folder.classes.joined(separator: ", "))).", subject: .file(path.description))
            }
            return (folder.examples, other.examples, other)
        }
    }

    /// The validation photos that are training photos: the same file (links included), or a
    /// copy. Contents are hashed only for photos whose size a training photo has too, which
    /// is rare but for copies.
    private static func sharedPhotos(
        _ training: [LabeledImageFolder.Example], _ validation: [LabeledImageFolder.Example]
    ) -> Int {
        guard !validation.isEmpty else { return 0 }
        let trained = Set(training.compactMap { FileIdentity($0.input.path) })
        let trainedBySize = Dictionary(grouping: training.map(\.input.path.description)) { fileSize($0) }
        var trainedDigests: [String: String] = [:]
        func digest(_ path: String) -> String? {
            if let known = trainedDigests[path] { return known }
            let value = PhotoDuplicates.digest(of: FileSystemPath(path))
            trainedDigests[path] = value
            return value
        }
        return validation.filter { example in
            let path = example.input.path
            if let identity = FileIdentity(path), trained.contains(identity) { return true }
            guard let size = fileSize(path.description), let candidates = trainedBySize[size], let own = digest(path.description)
            else { return false }
            return candidates.contains { digest($0) == own }
        }.count
    }

    /// The size of the file at `path` (links followed, as `stat` does), or nil when it cannot be read.
    private static func fileSize(_ path: String) -> Int? {
        FileStatus.optional(of: path)?.size
    }
}
