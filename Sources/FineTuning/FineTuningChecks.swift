import TasksCommon

/// The refusals `FineTuner.train` makes before any work, each with its own message.
enum FineTuningChecks {
    /// Refuses bad settings, an empty training set, examples of the wrong size and labels outside the classes.
    static func check(
        _ network: TailNetwork, training: some TrainingExamples, validation: (any TrainingExamples)?,
        settings: FineTuningSettings
    ) throws(TasksError) {
        guard training.count > 0 else {
            throw .invalidArgument("The training set has no examples; fine-tuning needs at least one.")
        }
        try checkExamples(training, "training", network)
        if let validation { try checkExamples(validation, "validation", network) }
        try checkSettings(settings)
    }

    private static func checkExamples(
        _ examples: some TrainingExamples, _ role: String, _ network: TailNetwork
    ) throws(TasksError) {
        guard examples.inputCount == network.inputCount else {
            throw .invalidArgument(
                "The \(role) examples have \(examples.inputCount) floats each, but the network's input \(network.inputShape) "
                    + "takes \(network.inputCount).")
        }
        for index in 0..<examples.count {
            let label = examples.label(of: index)
            guard (0..<network.classCount).contains(label) else {
                throw .invalidArgument("The label \(label) of \(role) example \(index) is outside 0..<\(network.classCount).")
            }
        }
    }

    private static func checkSettings(_ settings: FineTuningSettings) throws(TasksError) {
        guard settings.batchSize >= 1 else {
            throw .invalidArgument("The batch size is \(settings.batchSize); it must be at least 1.")
        }
        guard settings.epochs >= 1 else {
            throw .invalidArgument("The epoch count is \(settings.epochs); it must be at least 1.")
        }
        guard settings.learningRate.isFinite, settings.learningRate > 0 else {
            throw .invalidArgument("The learning rate is \(settings.learningRate); it must be a finite number above 0.")
        }
        guard settings.baseLearningRateScale.isFinite, settings.baseLearningRateScale >= 0 else {
            throw .invalidArgument(
                "The base learning rate scale is \(settings.baseLearningRateScale); it must be a finite number of at least 0.")
        }
        guard (0..<1).contains(settings.dropout) else {
            throw .invalidArgument("The dropout rate is \(settings.dropout); it must be in 0..<1.")
        }
        guard (0..<1).contains(settings.labelSmoothing) else {
            throw .invalidArgument("The label smoothing is \(settings.labelSmoothing); it must be in 0..<1.")
        }
        guard settings.weightDecay.isFinite, settings.weightDecay >= 0 else {
            throw .invalidArgument("The weight decay is \(settings.weightDecay); it must be a finite number of at least 0.")
        }
        if let patience = settings.patience, patience < 1 {
            throw .invalidArgument("The patience is \(patience) epochs; it must be at least 1 (or none, to train every epoch).")
        }
    }
}
