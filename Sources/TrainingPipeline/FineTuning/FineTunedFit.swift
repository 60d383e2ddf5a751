import FineTuning
import Foundation
import GraphSurgery
import HeadFitting
import ImageTasks
import TFLiteMetadata
import TasksCommon

/// `train --fine-tune K` (or `--fine-tune-from`, `--hidden-units`): the base cut before its last
/// K blocks, the frozen trunk's output cached per photo and view, and the blocks after the cut
/// trained with a new head by mini-batch descent (`FineTuner`), from the base's own weights.
enum FineTunedFit {
    /// The features at the cut, the trained tail and head, and their figures.
    /// - Throws: `TasksError`: the folders' errors, the base's (a cut it does not have, a tail with an operation training does not support,
    ///   named with the largest K that works), the training's (a loss that became NaN).
    static func fit(
        _ configuration: TrainingConfiguration, _ settings: FineTuningSettings, progress: (TrainingEvent) -> Void
    ) throws(TasksError) -> (TrainedClassifier, TrainingReport) {
        let start = ContinuousClock.now
        let photos = try RunPhotos(configuration)
        var report = photos.report
        let base = try FeatureExtractor(base: configuration.base, featureTensor: configuration.featureTensor)
        let tail = try self.tail(of: base, settings.cut)
        let extractor =
            try tail.map { (tail) throws(TasksError) in
                try FeatureExtractor(base: configuration.base, featureTensor: String(tail.cut))
            } ?? base
        let network: TailNetwork
        do throws(TasksError) {
            network = try TailNetwork(
                layers: tail?.layers ?? [], inputShape: tail?.cutShape ?? [1, base.dimension],
                hiddenUnits: settings.hiddenUnits, classCount: photos.folder.classes.count, seed: configuration.seed)
        } catch {
            throw error.naming(.file(configuration.base))
        }
        let (trainingFeatures, validationFeatures) = try photos.features(
            extractor, configuration, since: start, report: &report, progress: progress)
        if let tail { try TailCheck.check(network, tail: tail, base: base, on: trainingFeatures) }

        var settings = settings
        settings.labelSmoothing = configuration.labelSmoothing
        settings.seed = configuration.seed
        let training = CachedViews(trainingFeatures, seed: configuration.seed)
        let validation = validationFeatures.rows.isEmpty ? nil : CachedViews(validationFeatures, seed: nil)
        let trainingStart = ContinuousClock.now
        var initial = network
        var headFitIterations: Int?
        if settings.fitsHeadFirst, tail != nil, settings.hiddenUnits.isEmpty {
            (initial, headFitIterations) = try fittedHead(network, CachedViews(trainingFeatures, seed: nil), configuration)
        }
        let result = try FineTuner.train(initial, training: training, validation: validation, settings: settings) {
            progress(.epoch($0, of: settings.epochs))
        }
        report.fitSeconds = ClassifierTrainer.seconds(since: trainingStart)
        record(result, settings, tail: tail, base: base, into: &report)
        report.fineTuning?.headFitIterations = headFitIterations
        report.trainingAccuracy = accuracy(result.network, CachedViews(trainingFeatures, seed: nil))
        report.validationAccuracy = validation.map { accuracy(result.network, $0) }

        let calibration = result.network.calibration(of: CachedViews(trainingFeatures, seed: nil))
        let trained = TrainedClassifier(
            extractor: extractor,
            layers: .tail(cut: tail?.cut ?? base.featureTensor, layers: result.network.layers, calibration: calibration),
            classes: photos.folder.classes, name: configuration.name, version: configuration.version,
            description: configuration.description)
        if configuration.quantize { report.quantizedCheck = try check(trained, photos, configuration) }
        report.totalSeconds = ClassifierTrainer.seconds(since: start)
        return (trained, report)
    }

    /// Both models of `trained` on the validation photos (the training photos without them).
    private static func check(
        _ trained: TrainedClassifier, _ photos: RunPhotos, _ configuration: TrainingConfiguration
    ) throws(TasksError) -> QuantizedModelCheck {
        let float = try ClassifierExport.model(trained, quantized: false)
        let quantized = try ClassifierExport.model(trained, quantized: true)
        func measure(_ examples: [LabeledImageFolder.Example], _ name: String) throws(TasksError) -> QuantizedModelCheck {
            try QuantizedModelCheck.measure(
                float: float, quantized: quantized, examples: examples, photos: name, classes: photos.folder.classes,
                workers: configuration.workers, threads: configuration.threads)
        }
        // Validation photos none of which could be read measure nothing: the training photos then.
        if !photos.validation.isEmpty, case let check = try measure(photos.validation, "validation"), check.count > 0 {
            return check
        }
        return try measure(photos.training, "training")
    }

    /// `network` with its head fitted first on the frozen tail's output (softmax regression to
    /// its optimum, λ = 1/N as the frozen path's default, on each photo as it is): Keras's
    /// transfer-learning recipe fits the head before the top of the base is trained, so that a
    /// random head's first large gradients do not undo the pretrained blocks.
    /// - Returns: the network and the fit's iterations.
    private static func fittedHead(
        _ network: TailNetwork, _ photos: CachedViews, _ configuration: TrainingConfiguration
    ) throws(TasksError) -> (TailNetwork, Int) {
        let features = network.tailOutputs(of: photos)
        let data = try TrainingSet(rows: features, labels: photos.allLabels, classCount: network.classCount)
        let options = SoftmaxRegressionOptions(
            l2Strength: configuration.l2Strength ?? 1 / Double(features.count), labelSmoothing: configuration.labelSmoothing,
            maxIterations: configuration.maxIterations, gradientTolerance: configuration.gradientTolerance)
        let fit = try SoftmaxRegression.fit(data, options: options)
        let fitted = try network.replacingLogits(
            weights: fit.model.weights.values.map(Float.init), bias: fit.model.bias.map(Float.init))
        return (fitted, fit.iterations)
    }

    /// The base's tail after the cut `cut` asks for; nil for `.blocks(0)` (a head on the features).
    /// - Throws: `TasksError` naming the base: more blocks than it has, no such tensor, a tail
    ///   with an operation training does not support.
    private static func tail(of base: FeatureExtractor, _ cut: FineTuningCut) throws(TasksError) -> ModelTail? {
        do throws(TasksError) {
            let index: Int
            switch cut {
            case .blocks(0):
                return nil
            case .blocks(let blocks):
                index = try ModelTail.cut(forBlocks: blocks, of: base.baseModel, feature: base.featureTensor)
            case .tensor(let name):
                index = try ClassifierHeadAppender.tensor(named: name, in: base.baseModel).index
            }
            return try ModelTail.reading(base.baseModel, from: index, to: base.featureTensor)
        } catch {
            throw error.naming(.file(base.basePath))
        }
    }

    /// The training's figures, into `report`.
    private static func record(
        _ result: FineTuningResult, _ settings: FineTuningSettings, tail: ModelTail?, base: FeatureExtractor,
        into report: inout TrainingReport
    ) {
        var fineTuning = FineTuningReport(settings: settings, epochs: result.epochs, bestEpoch: result.bestEpoch)
        fineTuning.stoppedEarly = result.stoppedEarly
        if let tail {
            fineTuning.cutTensor = tail.cut
            fineTuning.cutShape = tail.cutShape
            fineTuning.trainedLayers = tail.layers.map(\.name)
        } else {
            fineTuning.cutTensor = base.featureTensor
            fineTuning.cutShape = base.tensor.shape.map(Int.init)
        }
        report.fineTuning = fineTuning
        report.iterations = result.epochs.count
        let best = result.epochs[result.bestEpoch - 1]
        report.objective = best.loss
        report.l2Strength = settings.weightDecay
        report.stopReason =
            result.stoppedEarly
            ? "stopped after epoch \(result.epochs.count): no lower validation loss in \(settings.patience ?? 0) epoch"
                + (settings.patience == 1 ? "" : "s")
            : "trained \(result.epochs.count) epoch\(result.epochs.count == 1 ? "" : "s")"
    }

    /// The share of `examples` whose most probable class is their own.
    private static func accuracy(_ network: TailNetwork, _ examples: CachedViews) -> Double {
        guard examples.count > 0 else { return 0 }
        let probabilities = network.probabilities(of: examples)
        let right = probabilities.indices.filter { index in
            let scores = probabilities[index]
            return scores.indices.max { scores[$0] < scores[$1] } == examples.label(of: index)
        }
        return Double(right.count) / Double(examples.count)
    }
}
