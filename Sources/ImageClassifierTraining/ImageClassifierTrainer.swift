import Foundation
import ImageTasks
import TasksCommon
import TrainingPipeline

/// Trains an image classifier on your own photos over a frozen base model, and evaluates
/// classifiers on labelled photos.
///
/// The Swift counterpart of Create ML's `MLImageClassifier(trainingData:parameters:)` and of
/// MediaPipe Model Maker's `ImageClassifier.create`, `evaluate` and `export_model`, for the
/// TFLite models MediaPipe and ML Kit load: the base (an embedder, or a classifier cut at its
/// pre-logits) computes each photo's features, and a softmax head is fitted on them to the
/// optimum of its convex objective (the mean cross-entropy plus `l2Penalty`/2 · |W|², the
/// objective of scikit-learn's `LogisticRegression(C)` for `l2Penalty` = 1/(C·N)), full batch,
/// with L-BFGS. Unlike Model Maker, it needs no download and no Python; unlike Create ML, it
/// runs on Linux and writes `.tflite` models.
///
/// ```swift
/// import Foundation
/// import ImageClassifierTraining
///
/// var parameters = ImageClassifierTrainer.Parameters(
///     baseModelPath: "../shared/testdata/models/mobilenet_v1_1.0_224_quant_embedding_extractor.tflite")
/// parameters.validation = .split(fraction: 0.1, seed: 1)
/// let classifier = try ImageClassifierTrainer.train(
///     trainingData: .labeledDirectories(at: URL(fileURLWithPath: "../shared/testdata/datasets/clothing-small/train")),
///     parameters: parameters)
/// print(classifier.trainingAccuracy, classifier.validationAccuracy ?? 0)
/// try classifier.write(to: URL(fileURLWithPath: "clothes-split"))
/// ```
public enum ImageClassifierTrainer {
    /// Where labelled photos are (Create ML's `MLImageClassifier.DataSource`).
    public enum DataSource: Sendable, Equatable {
        /// A folder with one sub-folder per class, named after it, holding the class's photos
        /// (JPEG, PNG, WebP; searched recursively). Classes are sorted by name; hidden folders
        /// and `__MACOSX` are not classes.
        case labeledDirectories(at: URL)

        var path: FileSystemPath {
            switch self {
            case .labeledDirectories(let url): FileSystemPath(url.path)
            }
        }
    }

    /// The photos a trained classifier is measured on while training.
    public enum Validation: Sendable, Equatable {
        /// None: only the training accuracy.
        case none
        /// A share of each class's photos (0 < `fraction` < 1), picked with `seed`.
        case split(fraction: Double, seed: UInt64 = 0)
        /// Other photos of the same classes.
        case dataSource(DataSource)
    }

    /// How to train (Create ML's `MLImageClassifier.ModelParameters`, Model Maker's `HParams`).
    public struct Parameters: Sendable {
        /// The frozen base model: an embedder (its output is the features) or a classifier
        /// (cut at its pre-logits: the input of its last fully connected or 1×1 convolution
        /// layer before the softmax).
        public var baseModelPath: String
        /// The base's tensor to train on, by name or index, when the automatic choice is not
        /// the right one; nil finds it.
        public var featureTensorName: String?
        /// The validation photos. Default `.none`.
        public var validation: Validation = .none
        /// λ of the objective's penalty (λ/2)·|W|², per photo; nil chooses it on the validation
        /// photos when there are some (as `searchesL2Penalty`), else 1/N (scikit-learn's `C = 1`).
        public var l2Penalty: Double?
        /// Choose `l2Penalty` on the validation photos: scikit-learn's C = 10, 3, 1, 0.3, 0.1,
        /// 0.03, 0.01 are fitted and the best validation accuracy kept; without `validation`, an
        /// error rather than 1/N. Default false.
        public var searchesL2Penalty = false
        /// ε in [0, 1): targets (1 − ε) on the photo's class plus ε spread over all classes. Default 0.
        public var labelSmoothing = 0.0
        /// The most L-BFGS iterations (each a pass over all the features). Default 10,000; the
        /// fit stops when it converges.
        public var maxIterations = 10_000
        /// Also train on views of each photo: flipped left to right, then random crops (70 to
        /// 100 % of each side), each as it is and flipped, drawn from its content and
        /// `augmentationSeed` (`vision-tasks train --augment`). Default false.
        public var augmentation = false
        /// The views per photo with `augmentation`, the photo as it is included: 2 to 16
        /// (`--augment-views`). Default 4: the photo, its flip, a crop and the crop flipped.
        public var augmentedViews = 4
        /// With `augmentation`, the largest exposure change of a view but the first, in stops:
        /// 0 to 2 (Create ML's `exposure` augmentation; `--augment-exposure`). Default 0, none.
        public var augmentationExposure = 0.0
        /// With `augmentation`, the largest angle a view but the first is turned by, in degrees:
        /// 0 to 45 (Create ML's `rotation`; `--augment-rotation`). Default 0, none.
        public var augmentationRotation = 0.0
        /// Seeds the views of `augmentation`. Default 0.
        public var augmentationSeed: UInt64 = 0
        /// Where features are cached by base model and photo content, so that training again
        /// computes only what is new; nil computes every feature. Default nil.
        public var featureCacheDirectory: URL?
        /// Photos worked on at once, each worker with a base model of its own. Default 1.
        public var workerCount = 1
        /// Train the base's last blocks with the head (or a head with hidden layers) instead of
        /// a softmax head on frozen features; nil keeps the base frozen. Default nil.
        public var fineTuning: FineTuning?

        /// Parameters with the defaults above and the given base.
        public init(baseModelPath: String) {
            self.baseModelPath = baseModelPath
        }
    }

    /// Trains a classifier on `trainingData`.
    /// - Parameters:
    ///   - trainingData: the labelled photos to train on.
    ///   - parameters: the base and how to train.
    /// - Returns: the trained classifier, with its accuracy on the training and validation photos.
    /// - Throws: `TasksError`: invalidArgument naming the folder for a layout that is not one
    ///   sub-folder per class (none, one class, an empty class, names differing only by case, a
    ///   class whose photos all fail to decode, validation classes that differ), naming the base
    ///   model when it cannot be used (not a TFLite model, no such feature tensor), or naming the
    ///   option out of range. Photos that cannot be read are skipped (and counted in
    ///   `skippedPhotos`), not errors.
    public static func train(trainingData: DataSource, parameters: Parameters) throws -> TrainedImageClassifier {
        var configuration = TrainingConfiguration(
            data: trainingData.path, base: parameters.baseModelPath, output: nil, name: "classifier",
            description: "An image classifier trained by SwiftVisionTasks.")
        switch parameters.validation {
        case .none: configuration.validation = .none
        case .split(let fraction, let seed):
            guard fraction > 0, fraction < 1 else {
                throw TasksError.invalidArgument("The validation fraction must be between 0 and 1, got \(fraction).")
            }
            configuration.validation = .split(fraction)
            configuration.seed = seed
        case .dataSource(let source): configuration.validation = .folder(source.path)
        }
        configuration.featureTensor = parameters.featureTensorName
        configuration.l2Strength = parameters.l2Penalty
        configuration.searchesL2 = parameters.searchesL2Penalty
        configuration.labelSmoothing = parameters.labelSmoothing
        configuration.maxIterations = parameters.maxIterations
        if parameters.augmentation {
            let augmentation = Augmentation(
                views: parameters.augmentedViews, exposure: parameters.augmentationExposure,
                rotation: parameters.augmentationRotation, seed: parameters.augmentationSeed)
            try augmentation.check(names: ("augmentedViews", "augmentationExposure", "augmentationRotation"))
            configuration.augmentation = augmentation
        }
        configuration.cacheRoot = parameters.featureCacheDirectory
        configuration.workers = max(1, parameters.workerCount)
        configuration.fineTuning = try parameters.fineTuning?.settings()
        let (classifier, report) = try ClassifierTrainer.fit(configuration)
        return TrainedImageClassifier(classifier: classifier, report: report)
    }

    /// Measures the classifier at `modelPath` on labelled photos (Model Maker's `evaluate`).
    /// - Parameters:
    ///   - modelPath: a `.tflite` image classifier whose labels include every class.
    ///   - data: the labelled photos.
    ///   - topK: the k of `ImageClassifierMetrics.topKAccuracy`. Default 5.
    /// - Throws: `TasksError`: the folder's layout errors (see `train`), the model's loading
    ///   errors, and invalidArgument naming the model when a class is none of its categories.
    public static func evaluate(modelPath: String, on data: DataSource, topK: Int = 5) throws -> ImageClassifierMetrics {
        var evaluation = DatasetEvaluation(folder: try LabeledImageFolder(data.path), topK: topK)
        let task = try ClassificationTask(
            options: evaluation.options(model: modelPath, threads: 1), processing: ImageProcessing())
        try evaluation.checkClasses(of: task, model: modelPath)
        evaluation.run(tasks: [task]) { _ in }
        return ImageClassifierMetrics(evaluation.metrics, skipped: evaluation.skipped.count)
    }
}
