import FineTuning
import Foundation

/// `train`'s options for a trained tail or a deeper head (`--fine-tune`, `--hidden-units`): the
/// cut, and the mini-batch optimizer that trains it (MediaPipe Model Maker's `HParams`, Create
/// ML's `MLImageClassifier.ModelParameters`).
enum FineTuningOptionGroup {
    static let fineTune = Option<Int>(
        name: "fine-tune", valueName: "K",
        help: "Train the base's last K blocks with the head (Model Maker's do_fine_tuning); 0 keeps the base frozen "
            + "and fits the head with L-BFGS.", default: 0, defaultDescription: "0",
        transform: ValueParser.integer("fine-tune", in: 0...1_000))
    static let fineTuneFrom = Option<String?>(
        name: "fine-tune-from", valueName: "TENSOR",
        help: "Train every layer after this tensor of the base (a name or an index) instead of the last K blocks.")
    static let hiddenUnits = Option<[Int]>(
        name: "hidden-units", valueName: "N[,M]",
        help: "Hidden layers of the head (RELU), e.g. 256 or 512,128 (Create ML's multilayerPerceptron(layerSizes:)).",
        default: [], defaultDescription: "none: softmax regression"
    ) { text throws(UsageError) in
        let sizes = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard !sizes.isEmpty, sizes.count <= 4, let units = sizes as? [Int], units.allSatisfy({ (1...16_384).contains($0) })
        else {
            throw UsageError("--hidden-units expects 1 to 4 layer sizes between 1 and 16384 separated by commas, got '\(text)'")
        }
        return units
    }
    static let batchSize = Option<Int>(
        name: "batch-size", valueName: "N", help: "Photos per step of the optimizer (with trained layers).", default: 32,
        defaultDescription: "32",
        transform: ValueParser.integer("batch-size", in: 1...4_096))
    static let optimizer = Option<FineTuningOptimizer>(
        name: "optimizer", valueName: "NAME", help: "adam, or sgd (with momentum 0.9), with trained layers.", default: .adam,
        defaultDescription: "adam"
    ) { text throws(UsageError) in
        guard let value = FineTuningOptimizer(rawValue: text) else {
            throw UsageError("--optimizer must be adam or sgd, got '\(text)'")
        }
        return value
    }
    static let learningRateSchedule = Option<LearningRateSchedule>(
        name: "learning-rate-schedule", valueName: "NAME",
        help: "constant, or cosine: the learning rates decay from their value to 0 over --epochs (Keras's CosineDecay), "
            + "with trained layers.",
        default: .constant, defaultDescription: "constant"
    ) { text throws(UsageError) in
        guard let value = LearningRateSchedule(rawValue: text) else {
            throw UsageError("--learning-rate-schedule must be constant or cosine, got '\(text)'")
        }
        return value
    }
    static let baseLearningRateScale = Option<Double>(
        name: "base-learning-rate-scale", valueName: "F",
        help: "The fine-tuned blocks' learning rate as a share of the head's (0 < F <= 1); below 1 they move less from "
            + "the base's weights (Keras's transfer-learning recipe).", default: 1,
        defaultDescription: "1: one rate, Model Maker's"
    ) { text throws(UsageError) in
        guard let value = Double(text), value > 0, value <= 1 else {
            throw UsageError("--base-learning-rate-scale expects a number in (0, 1], got '\(text)'")
        }
        return value
    }
    static let dropout = Option<Double>(
        name: "dropout", valueName: "P",
        help: "The share of features dropped before the head while training layers (0 <= P < 1).",
        default: 0.2, defaultDescription: "0.2"
    ) { text throws(UsageError) in
        guard let value = Double(text), value >= 0, value < 1 else {
            throw UsageError("--dropout expects a number in [0, 1), got '\(text)'")
        }
        return value
    }
    static let classWeights = Option<ClassWeighting>(
        name: "class-weights", valueName: "MODE",
        help: "none, or balanced: each class weighs as much in the loss as every other (scikit-learn's balanced).",
        default: .none, defaultDescription: "none"
    ) { text throws(UsageError) in
        guard let value = ClassWeighting(rawValue: text) else {
            throw UsageError("--class-weights must be none or balanced, got '\(text)'")
        }
        return value
    }
    static let patience = Option<Int>(
        name: "patience", valueName: "N",
        help: "Stop after N epochs (0-10000) without a lower validation loss, keeping the best epoch's weights; 0 trains "
            + "every epoch (as does a run without validation photos, keeping the last).",
        default: 4, defaultDescription: "4", transform: ValueParser.integer("patience", in: 0...10_000))

    static let fitHeadFirst = Flag(
        name: "fit-head-first",
        help: "Fit the head on the frozen blocks' output first (L-BFGS, to its optimum), then train the blocks and the head "
            + "from there (Keras's transfer-learning recipe); by default the head starts from random weights.")

    static let optionTable = [
        fineTune.definition, fineTuneFrom.definition, hiddenUnits.definition, batchSize.definition, optimizer.definition,
        learningRateSchedule.definition, baseLearningRateScale.definition, dropout.definition, classWeights.definition,
        patience.definition,
        fitHeadFirst.definition,
    ]

    /// Whether the run trains with the mini-batch optimizer (a tail or hidden layers to train).
    static func isNeural(_ parsed: ParsedArguments) throws(UsageError) -> Bool {
        let blocks = try parsed.value(fineTune)
        let hidden = try parsed.value(hiddenUnits)
        return blocks > 0 || parsed.contains(fineTuneFrom.definition) || !hidden.isEmpty
    }

    /// The options given that only trained layers use, when the run fits the frozen head (for a warning).
    static func unusedOptions(_ parsed: ParsedArguments) throws(UsageError) -> [String] {
        guard try !isNeural(parsed) else { return [] }
        let options: [OptionDefinition] = [
            batchSize.definition, optimizer.definition, learningRateSchedule.definition, baseLearningRateScale.definition,
            dropout.definition, classWeights.definition, patience.definition, fitHeadFirst.definition,
        ]
        return options.filter { parsed.contains($0) }.map { "--\($0.name)" }
    }

    /// The settings given; nil for the frozen path (no `--fine-tune`, `--fine-tune-from` or `--hidden-units`).
    /// - Parameters:
    ///   - epochs: `--epochs` when given.
    ///   - learningRate: `--learning-rate` when given.
    static func settings(
        _ parsed: ParsedArguments, epochs: Int?, learningRate: Double?
    ) throws(UsageError) -> FineTuningSettings? {
        guard try isNeural(parsed) else { return nil }
        let blocks = try parsed.value(fineTune)
        let from = try parsed.value(fineTuneFrom)
        if blocks > 0 && from != nil { throw UsageError("give --fine-tune or --fine-tune-from, not both") }
        var settings = FineTuningSettings(cut: from.map { .tensor($0) } ?? .blocks(blocks))
        settings.hiddenUnits = try parsed.value(hiddenUnits)
        if let epochs { settings.epochs = epochs }
        if let learningRate {
            guard learningRate > 0, learningRate.isFinite else {
                throw UsageError("--learning-rate expects a number > 0, got \(learningRate)")
            }
            settings.learningRate = learningRate
        }
        settings.batchSize = try parsed.value(batchSize)
        settings.optimizer = try parsed.value(optimizer)
        settings.learningRateSchedule = try parsed.value(learningRateSchedule)
        settings.baseLearningRateScale = try parsed.value(baseLearningRateScale)
        settings.dropout = try parsed.value(dropout)
        settings.classWeighting = try parsed.value(classWeights)
        settings.fitsHeadFirst = parsed.isSet(fitHeadFirst)
        let patience = try parsed.value(patience)
        settings.patience = patience == 0 ? nil : patience
        return settings
    }
}
