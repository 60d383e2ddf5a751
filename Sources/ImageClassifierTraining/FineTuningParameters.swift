import FineTuning
import Foundation
import TasksCommon
import TrainingPipeline

extension ImageClassifierTrainer {
    /// Training the base's last blocks with the head, or a head with hidden layers, instead of
    /// fitting a softmax head on frozen features (MediaPipe Model Maker's
    /// `HParams(do_fine_tuning=True)`, Create ML's `multilayerPerceptron(layerSizes:)` for
    /// `hiddenUnits`): mini-batches, Adam or SGD with momentum, dropout before the head, early
    /// stopping on the validation loss with the best epoch's weights kept. The exported model
    /// keeps the trunk before the cut as it is (quantized), then the trained layers in float32;
    /// `write(to:quantize:)` adds them in int8 too, calibrated on the training photos.
    public struct FineTuning: Sendable, Equatable {
        /// The optimizer (`vision-tasks train --optimizer`).
        public enum Optimizer: Sendable, Equatable {
            /// Adam (β1 0.9, β2 0.999, ε 1e-7, Keras's).
            case adam
            /// Stochastic gradient descent with momentum 0.9.
            case sgdWithMomentum
        }

        /// How the learning rates change over the run (`vision-tasks train --learning-rate-schedule`).
        public enum LearningRateSchedule: Sendable, Equatable {
            /// The same rates at every step.
            case constant
            /// Keras's `CosineDecay`: each rate times ½ (1 + cos(π t / T)) at step t of the
            /// T = epochs × batches per epoch, down to 0 after the last epoch.
            case cosineDecay
        }

        /// The base's blocks to train, counted from its features (`--fine-tune K`; a block is a
        /// depthwise and pointwise pair of MobileNet v1, an inverted residual of v2). 0 keeps the
        /// base frozen and trains the head alone (with `hiddenUnits`). Default 1.
        public var trainedBlocks = 1
        /// Train every layer after this tensor of the base (a name or an index) instead of
        /// `trainedBlocks` (`--fine-tune-from`). Default nil.
        public var cutTensorName: String?
        /// The head's hidden layers (RELU), in order; empty for softmax regression. Default empty.
        public var hiddenUnits: [Int] = []
        /// The most passes over the training photos. Default 15.
        public var epochs = 15
        /// Photos per optimizer step. Default 32 (Model Maker's).
        public var batchSize = 32
        /// The head's learning rate. Default 0.001.
        public var learningRate = 1e-3
        /// The base's blocks train at `learningRate` times this (0 < scale ≤ 1). Default 1 (Model
        /// Maker's one learning rate).
        public var baseLearningRateScale = 1.0
        /// Default `.adam`.
        public var optimizer = Optimizer.adam
        /// Default `.constant`.
        public var learningRateSchedule = LearningRateSchedule.constant
        /// The share of the head's inputs dropped while training (Model Maker's `dropout_rate`). Default 0.2.
        public var dropoutRate = 0.2
        /// Epochs without a lower validation loss before stopping; nil trains every epoch. Default 4.
        public var earlyStoppingPatience: Int? = 4
        /// Weigh each class as much as every other in the loss (scikit-learn's
        /// `class_weight="balanced"`). Default false.
        public var balancesClasses = false
        /// Fit the head on the frozen blocks' output first (to its optimum), then train from there
        /// (Keras's transfer-learning recipe); false starts the head from random weights. Default false.
        public var fitsHeadFirst = false

        /// The defaults above: the base's last block and a softmax head.
        public init() {}

        /// The engine's settings.
        /// - Throws: `TasksError` invalidArgument naming the field out of range.
        func settings() throws(TasksError) -> FineTuningSettings {
            guard trainedBlocks >= 0 else { throw .invalidArgument("trainedBlocks must be >= 0, got \(trainedBlocks).") }
            guard epochs >= 1 else { throw .invalidArgument("epochs must be >= 1, got \(epochs).") }
            guard baseLearningRateScale > 0, baseLearningRateScale <= 1 else {
                throw .invalidArgument("baseLearningRateScale must be in (0, 1], got \(baseLearningRateScale).")
            }
            guard dropoutRate >= 0, dropoutRate < 1 else {
                throw .invalidArgument("dropoutRate must be in [0, 1), got \(dropoutRate).")
            }
            guard hiddenUnits.allSatisfy({ $0 >= 1 }) else {
                throw .invalidArgument("hiddenUnits must be positive layer sizes, got \(hiddenUnits).")
            }
            var settings = FineTuningSettings(cut: cutTensorName.map { .tensor($0) } ?? .blocks(trainedBlocks))
            settings.hiddenUnits = hiddenUnits
            settings.epochs = epochs
            settings.batchSize = batchSize
            settings.learningRate = learningRate
            settings.baseLearningRateScale = baseLearningRateScale
            settings.optimizer = optimizer == .adam ? .adam : .sgd
            settings.learningRateSchedule = learningRateSchedule == .constant ? .constant : .cosine
            settings.dropout = dropoutRate
            settings.patience = earlyStoppingPatience
            settings.classWeighting = balancesClasses ? .balanced : .none
            settings.fitsHeadFirst = fitsHeadFirst
            return settings
        }
    }
}
