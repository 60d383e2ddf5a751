import FineTuning
import Foundation

/// What a run with trained layers trained and measured (`TrainingReport.fineTuning`; `train
/// --format json` prints it): the cut, the settings, each epoch.
package struct FineTuningReport: Codable, Sendable {
    /// `--fine-tune K`; nil when the cut was named (`--fine-tune-from`).
    package var blocks: Int?
    /// The base's tensor the trained layers start from (the frozen trunk's output), and its shape.
    package var cutTensor = 0
    package var cutShape: [Int] = []
    /// The base's layers trained, by the tensors they write, in order; empty for a head alone.
    package var trainedLayers: [String] = []
    package var hiddenUnits: [Int]
    package var optimizer: String
    /// The head's learning rate; the base's layers train at `learningRate × baseLearningRateScale`.
    package var learningRate: Double
    package var baseLearningRateScale: Double
    /// `constant` or `cosine` (`LearningRateSchedule`).
    package var learningRateSchedule: String
    package var batchSize: Int
    package var dropout: Double
    package var labelSmoothing: Double
    package var classWeights: String
    /// The L-BFGS iterations of the head fitted on the frozen tail before training
    /// (`FineTuningSettings.fitsHeadFirst`); nil when the head started from random weights.
    package var headFitIterations: Int?
    /// Every epoch's figures, in order.
    package var epochs: [EpochRecord]
    /// The epoch (from 1) whose weights the model has: the lowest validation loss, else the last.
    package var bestEpoch: Int
    /// Whether early stopping ended the training before its last epoch.
    package var stoppedEarly = false

    /// The fewest validation photos early stopping and the best epoch should follow for
    /// `classes` classes: 5 per class and at least 50, below which one photo moves the
    /// validation accuracy by 2 points or more and the validation loss's lowest epoch is chance.
    package static func fewestValidationPhotos(classes: Int) -> Int { max(50, 5 * classes) }

    init(settings: FineTuningSettings, epochs: [EpochRecord], bestEpoch: Int) {
        if case .blocks(let count) = settings.cut { blocks = count }
        hiddenUnits = settings.hiddenUnits
        optimizer = settings.optimizer.rawValue
        learningRate = settings.learningRate
        baseLearningRateScale = settings.baseLearningRateScale
        learningRateSchedule = settings.learningRateSchedule.rawValue
        batchSize = settings.batchSize
        dropout = settings.dropout
        labelSmoothing = settings.labelSmoothing
        classWeights = settings.classWeighting.rawValue
        self.epochs = epochs
        self.bestEpoch = bestEpoch
    }
}
