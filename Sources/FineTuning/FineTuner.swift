import Foundation
import TasksCommon

/// Trains a `TailNetwork` on labelled examples: mini-batches, softmax cross-entropy, Adam or SGD,
/// early stopping on the validation loss.
package enum FineTuner {
    /// Mini-batch training: each epoch a seeded shuffle of the training examples (the last
    /// batch may be smaller), forward, loss, backward and one optimizer step per batch; then the
    /// validation loss and accuracy, if there are validation examples (an empty set counts as none).
    ///
    /// The same network, examples and settings (`seed` included) give bit-identical results.
    /// - Parameters:
    ///   - network: the starting weights (pretrained tail and initialized head).
    ///   - training: the examples trained on; `fill` is called with the epoch (from 1).
    ///   - validation: the examples early stopping watches (their epoch-0 view), or nil.
    ///   - settings: the schedule; `cut` is not read here.
    ///   - progress: called after each epoch with its record, on the calling thread.
    /// - Returns: the best epoch's network (lowest validation loss; without validation, the
    ///   last epoch's), every epoch's record, and whether early stopping ended the run.
    /// - Throws: `TasksError.invalidArgument`, before any work, for no training examples, a
    ///   label outside 0 ..< classes, examples whose `inputCount` is not the network's, a batch
    ///   size or epoch count below 1, a learning rate that is not finite and above 0, and other
    ///   settings out of range (dropout and label smoothing in 0..<1, weight decay and the base
    ///   rate scale ≥ 0, patience ≥ 1); and, when a batch's loss is NaN or infinite, "The
    ///   training loss became NaN at epoch E, batch B (learning rate L): give a lower
    ///   --learning-rate." (no network is given back); likewise after an epoch whose training
    ///   loss diverged (over `divergenceFactor` × ln(classes)), whose validation loss or
    ///   weights are not finite.
    package static func train(
        _ network: TailNetwork, training: some TrainingExamples, validation: (any TrainingExamples)?,
        settings: FineTuningSettings, progress: (EpochRecord) -> Void = { _ in }
    ) throws(TasksError) -> FineTuningResult {
        let validation = validation.flatMap { $0.count > 0 ? $0 : nil }
        try FineTuningChecks.check(network, training: training, validation: validation, settings: settings)
        let session = TrainingSession(network: network, training: training, settings: settings)
        var records: [EpochRecord] = []
        var best: (epoch: Int, loss: Double, parameters: [[Float]])?
        let clock = ContinuousClock()
        for epoch in 1...settings.epochs {
            let start = clock.now
            let trained = try session.trainEpoch(training, epoch: epoch)
            let validated = validation.map { session.evaluate($0) }
            let record = EpochRecord(
                epoch: epoch, loss: trained.loss, trainingAccuracy: trained.accuracy, validationLoss: validated?.loss,
                validationAccuracy: validated?.accuracy, seconds: (clock.now - start) / .seconds(1))
            records.append(record)
            progress(record)
            try checkHealth(record, session: session, classes: network.classCount, settings: settings)
            guard let validated else { continue }
            if best == nil || validated.loss < best!.loss {
                best = (epoch, validated.loss, session.engine.parameters)
            } else if let patience = settings.patience, epoch - best!.epoch >= patience, epoch < settings.epochs {
                return result(network, best!, records, stoppedEarly: true)
            }
        }
        return result(network, best ?? (settings.epochs, 0, session.engine.parameters), records, stoppedEarly: false)
    }

    /// A loss this many times a uniform guess's, ln(classes), means the training diverged: a
    /// network's first epochs stay within a few times it.
    static let divergenceFactor = 20.0

    /// Stops a run whose epoch diverged (a training loss over `divergenceFactor` × ln(classes)),
    /// whose validation loss is not finite, or whose weights hold a value that is not finite: the
    /// model would be written broken, or silently useless.
    /// - Throws: `TasksError.invalidArgument` saying which, with the epoch and the learning rate.
    private static func checkHealth(
        _ record: EpochRecord, session: TrainingSession, classes: Int, settings: FineTuningSettings
    ) throws(TasksError) {
        let advice = "(learning rate \(settings.learningRate)): give a lower --learning-rate."
        let uniform = log(Double(classes))
        if record.loss > divergenceFactor * uniform {
            throw .invalidArgument(
                "The training diverged at epoch \(record.epoch): its loss is \(String(format: "%.4g", record.loss)), more than "
                    + "\(Int(divergenceFactor)) times a uniform guess's (\(String(format: "%.3f", uniform))) \(advice)")
        }
        if let loss = record.validationLoss, !loss.isFinite {
            throw .invalidArgument(
                "The validation loss became \(loss.isNaN ? "NaN" : "infinite") at epoch \(record.epoch) \(advice)")
        }
        if session.engine.weights.contains(where: { !$0.array.allSatisfy(\.isFinite) }) {
            throw .invalidArgument("The weights became NaN or infinite at epoch \(record.epoch) \(advice)")
        }
    }

    private static func result(
        _ network: TailNetwork, _ best: (epoch: Int, loss: Double, parameters: [[Float]]), _ records: [EpochRecord],
        stoppedEarly: Bool
    ) -> FineTuningResult {
        var trained = network
        trained.parameters = best.parameters
        return FineTuningResult(network: trained, epochs: records, bestEpoch: best.epoch, stoppedEarly: stoppedEarly)
    }
}
