import Foundation
import TasksCommon
import TrainingPipeline

/// A classifier `ImageClassifierTrainer.train(trainingData:parameters:)` fitted: its classes,
/// how well it did, and `write(to:name:version:description:quantize:)` to export it (Create ML's
/// `MLImageClassifier` with `trainingMetrics`, `validationMetrics` and `write(to:)`).
public struct TrainedImageClassifier: Sendable {
    let classifier: TrainedClassifier
    let report: TrainingReport

    init(classifier: TrainedClassifier, report: TrainingReport) {
        self.classifier = classifier
        self.report = report
    }

    /// The class names, sorted: the model's labels, in output order.
    public var classes: [String] { report.classes }
    /// The share of training photos the fitted head classifies right.
    public var trainingAccuracy: Double { report.trainingAccuracy }
    /// The share of validation photos it classifies right; nil without validation photos.
    public var validationAccuracy: Double? { report.validationAccuracy }
    /// The photos that could not be read or decoded, left out.
    public var skippedPhotos: Int { report.skipped.count }
    /// The L-BFGS iterations of the fit.
    public var iterations: Int { report.iterations }
    /// Whether the fit stopped because it converged (else at `maxIterations`, or where double
    /// precision stopped the line search: the model is then the last point reached). True with
    /// fine-tuning, which runs its epochs (early stopping included) and has no such test.
    public var converged: Bool { report.converged ?? true }
    /// The objective at the fitted head: mean cross-entropy plus the penalty.
    public var loss: Double { report.objective }

    /// Writes the classifier into the new folder `directory` (written aside and renamed: all
    /// or nothing): `model.tflite` (the base cut at its features with the head and TFLite
    /// metadata, for MediaPipe's `ImageClassifier`), `model_quantized.tflite` when `quantize`
    /// (UINT8 scores, within 1/256; trained layers in int8, TFLite's full-integer scheme:
    /// weights per output channel, activation ranges from the training photos), `automl/` (an AutoML Vision Edge export for ML Kit's
    /// `AutoMLImageLabelerLocalModel(manifestPath:)`) and `remote/NAME.zip` (that export as a
    /// bundle to publish as a remote model).
    /// - Parameters:
    ///   - directory: the folder to create; it must not exist.
    ///   - name: the model's name in its metadata and the bundle's; default the folder's name.
    ///   - version: the version in the metadata. Default "1".
    ///   - description: the description in the metadata.
    ///   - quantize: also write `model_quantized.tflite`.
    /// - Throws: `TasksError`: invalidArgument when `directory` exists (nothing is replaced);
    ///   internal naming the folder when it cannot be written.
    public func write(
        to directory: URL, name: String? = nil, version: String = "1",
        description: String = "An image classifier trained by SwiftVisionTasks.", quantize: Bool = false
    ) throws {
        var classifier = classifier
        classifier.name = name ?? directory.lastPathComponent
        classifier.version = version
        classifier.description = description
        try ClassifierExport.write(classifier, to: directory, quantize: quantize)
    }
}
