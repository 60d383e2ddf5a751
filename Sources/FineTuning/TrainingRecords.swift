/// The figures of one epoch of fine-tuning.
package struct EpochRecord: Sendable, Codable, Equatable {
    /// The epoch, from 1.
    package var epoch: Int
    /// The mean training loss over the epoch's batches (each weighed by its size): cross-entropy
    /// against the smoothed targets, with the class weights, plus the weight decay term.
    package var loss: Double
    /// The share of training examples classified right during the epoch (as the batches went,
    /// with dropout on), in 0...1.
    package var trainingAccuracy: Double
    /// The mean cross-entropy on the validation examples (smoothed targets, no class weights,
    /// no weight decay, no dropout) after the epoch; nil without validation.
    package var validationLoss: Double?
    /// The share of validation examples classified right after the epoch; nil without validation.
    package var validationAccuracy: Double?
    /// Wall-clock seconds of the epoch, validation included.
    package var seconds: Double

    /// A record of these figures.
    package init(
        epoch: Int, loss: Double, trainingAccuracy: Double, validationLoss: Double?, validationAccuracy: Double?, seconds: Double
    ) {
        self.epoch = epoch
        self.loss = loss
        self.trainingAccuracy = trainingAccuracy
        self.validationLoss = validationLoss
        self.validationAccuracy = validationAccuracy
        self.seconds = seconds
    }
}

/// What `FineTuner.train` gives back.
package struct FineTuningResult: Sendable {
    /// The network with the best epoch's weights: the lowest validation loss (the first on a
    /// tie), or the last epoch's without validation.
    package var network: TailNetwork
    /// One record per epoch run, in order.
    package var epochs: [EpochRecord]
    /// The epoch (from 1) whose weights `network` has.
    package var bestEpoch: Int
    /// Whether early stopping ended the run before `settings.epochs`.
    package var stoppedEarly: Bool
}
