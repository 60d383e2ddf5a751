import Foundation

/// Where `train --fine-tune` cuts the base: the trained tail starts there.
package enum FineTuningCut: Sendable, Equatable {
    /// Before the base's last K blocks (`--fine-tune K`; `ModelTail.blockStarts`); 0 at its features.
    case blocks(Int)
    /// At the base's tensor of this name or index (`--fine-tune-from TENSOR`).
    case tensor(String)
}

/// The optimizer of a fine-tuning run (`--optimizer`).
package enum FineTuningOptimizer: String, Sendable, Equatable, CaseIterable {
    /// Adam (β1 0.9, β2 0.999, ε 1e-7, Keras's), the default.
    case adam
    /// Stochastic gradient descent with momentum 0.9.
    case sgd
}

/// How a fine-tuning run's learning rates change over the run (`--learning-rate-schedule`).
package enum LearningRateSchedule: String, Sendable, Equatable, CaseIterable {
    /// The same rates at every step.
    case constant
    /// Keras's `CosineDecay` over the whole run: each rate times ½ (1 + cos(π t / T)) at step t
    /// of T = epochs × batches per epoch, from the full rate at the first step to 0 after the
    /// last epoch (early stopping may end the run before).
    case cosine

    /// The factor on the learning rates at step `step` (from 0) of a run of `steps` steps.
    package func factor(step: Int, of steps: Int) -> Double {
        switch self {
        case .constant: 1
        case .cosine: 0.5 * (1 + cos(Double.pi * Double(min(step, steps)) / Double(max(steps, 1))))
        }
    }
}

/// How a fine-tuning run weighs each class's photos in the loss (`--class-weights`).
package enum ClassWeighting: String, Sendable, Equatable, CaseIterable {
    /// Every photo counts once.
    case none
    /// A photo of class c counts N / (classes × N_c), scikit-learn's `class_weight="balanced"`:
    /// each class weighs as much in all as every other.
    case balanced
}

/// What `train --fine-tune` does beyond the frozen path: the cut, the optimizer and its
/// schedule, the regularizers. Defaults are MediaPipe Model Maker's (`dropout_rate` 0.2, batch
/// size 32 for fine-tuning, one learning rate for the trained blocks and the head).
package struct FineTuningSettings: Sendable, Equatable {
    /// `.blocks(0)` trains no block of the base: only the head (`hiddenUnits` on frozen features).
    package var cut: FineTuningCut
    /// The head's hidden layers (RELU), in order; empty for softmax regression on the tail's output.
    package var hiddenUnits: [Int] = []
    /// Passes over the training photos at most (early stopping may end sooner).
    package var epochs = 15
    package var batchSize = 32
    /// The head's learning rate.
    package var learningRate = 1e-3
    /// The pretrained blocks' learning rate as a share of the head's: 1 (Model Maker's one rate),
    /// which on clothing-small's MobileNet v1 with K = 2 gave 0.918 where 0.3 gave 0.886 and
    /// Keras's recipe's 0.1 gave 0.874 (the blocks barely moved from the base's weights).
    package var baseLearningRateScale = 1.0
    package var optimizer = FineTuningOptimizer.adam
    package var learningRateSchedule = LearningRateSchedule.constant
    /// The share of the features dropped before the head while training (Model Maker's `dropout_rate`).
    package var dropout = 0.2
    /// L2 weight decay on the weights (not the biases), added to the mean loss as (decay/2)·|W|².
    package var weightDecay = 0.0
    /// Epochs without a lower validation loss before stopping (the best epoch's weights are kept);
    /// nil trains every epoch.
    package var patience: Int? = 4
    package var classWeighting = ClassWeighting.none
    /// Label smoothing ε: the targets are (1 − ε)·one-hot + ε/classes (Keras's `label_smoothing`); 0 for none.
    package var labelSmoothing = 0.0
    /// Fit the head on the frozen tail's output first, to its optimum, and train the tail and the
    /// head from there (Keras's transfer-learning recipe); false (the default: on clothing-small
    /// it gave 0.83 against 0.85 from a random head, the fitted head being too sure of the
    /// training photos) starts from Keras's random `Dense` initialization. Only for a head
    /// without hidden layers on a tail.
    package var fitsHeadFirst = false
    /// Fixes the head's initialization, the shuffles and the dropout masks: the same seed repeats a run bit for bit.
    package var seed: UInt64 = 0

    package init(cut: FineTuningCut) {
        self.cut = cut
    }
}
