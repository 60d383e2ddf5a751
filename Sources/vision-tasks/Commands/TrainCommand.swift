import Foundation
import ImageTasks
import LiteRT
import TasksCommon
import TrainingPipeline

/// `vision-tasks train`: a classifier for your own photos, trained on a frozen base.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a classifier on your photos (one folder per class) over a frozen base model; export it.",
        usage: "vision-tasks train DATA --base MODEL --output DIR [options]",
        discussion: """
            DATA holds one sub-folder per class, named after it, with its photos (Create ML's and
            Model Maker's layout; classes sorted by name). Each photo goes through the base model,
            cut at its features: an embedder's output, or a classifier's pre-logits (the input of
            its last fully connected or 1x1 convolution layer before the softmax), found by itself
            or named with --feature-tensor. By default the base stays frozen: a softmax head is
            fitted on the features, full batch, with L-BFGS (liblbfgs) to the optimum of its convex
            objective: the mean cross-entropy plus (l2/2)·|W|² (the bias not penalized),
            scikit-learn's LogisticRegression(C) for l2 = 1/(C·N); with validation photos l2 is
            chosen on them unless --l2 gives it (--l2 auto). Features are cached by base model and photo content, so a second
            run with other options computes only what is new.

            --fine-tune K trains the base's last K blocks with the head instead (Model Maker's
            do_fine_tuning; a block: the layers between two tensors that the rest of the graph
            reaches only through them, e.g. MobileNet v1's depthwise and pointwise pair, MobileNet
            v2's inverted residual with its ADD). The trunk before them stays frozen, its output
            cached like the features; the blocks start from the base's own weights (dequantized)
            and train at --base-learning-rate-scale times the head's --learning-rate, with Adam
            (or SGD) on mini-batches of --batch-size, --dropout before the head, and early stopping
            on the validation loss (--patience; the best epoch's weights are kept). --hidden-units
            puts hidden layers in the head, on frozen or fine-tuned features. One line per epoch
            shows the loss, the validation loss and accuracy and the time left.
            """,
        epilogue: """
            DIR (which must not exist; it is written aside and renamed, all or nothing) gets
            model.tflite (the base with the head and TFLite metadata: MediaPipe's ImageClassifier
            and `classify` load it; fine-tuned, the trunk stays quantized, then DEQUANTIZE and the
            trained layers in float32), model_quantized.tflite with --quantize (UINT8 scores, within
            1/256; trained layers in int8 too, calibrated on the training photos, and both models'
            accuracy measured side by side), automl/ (manifest.json, dict.txt, model.tflite:
            ML Kit's AutoML export, for `label --manifest`) and remote/ (NAME.zip, that export as a bundle, and index.json: serve
            the folder with any static HTTP server, e.g. `python3 -m http.server -d DIR/remote`, as a
            model source for `models download NAME --source URL`). Photos that cannot be read are skipped with a
            warning each and counted; files that are not photos are reported as ignored.
            The summary (stdout; json with --format json) gives the photos per class, the fit, the
            training and validation accuracy and the times.
            EXIT STATUS: 0 when the model was written, 1 when it could not be, 2 for a usage error.
            """)

    static let base = Option<String?>(
        name: "base", valueName: "MODEL", help: "The base model (required): an embedder or a classifier.")
    static let output = Option<String?>(
        name: "output", valueName: "DIR", help: "The folder to write (required); it must not exist.")
    static let validation = Option<String?>(
        name: "validation", valueName: "DIR", help: "Measure on the photos of DIR (the same class folders).")
    static let validationSplit = Option<Double?>(
        name: "validation-split", valueName: "F",
        help: "Keep this share of each class's photos (0 < F < 1) for validation, picked with --seed.", default: nil
    ) { text throws(UsageError) in
        guard let value = Double(text), value > 0, value < 1 else {
            throw UsageError("--validation-split expects a number between 0 and 1, got '\(text)'")
        }
        return value
    }
    static let seed = Option<UInt64>(
        name: "seed", valueName: "N",
        help: "Seeds the validation split and the --augment crops; with trained layers also the head's initial weights, "
            + "the shuffles and the dropout masks (the same seed repeats a run bit for bit).", default: 0,
        defaultDescription: "0"
    ) { text throws(UsageError) in
        guard let value = UInt64(text) else { throw UsageError("--seed expects a whole number >= 0, got '\(text)'") }
        return value
    }
    static let featureTensor = Option<String?>(
        name: "feature-tensor", valueName: "NAME", help: "The base's tensor to train on (a name or an index); found by default.")
    /// `--l2`: a penalty, or `auto` to choose it on the validation photos.
    enum Penalty: Equatable {
        case strength(Double)
        case auto
    }
    static let l2 = Option<Penalty?>(
        name: "l2", valueName: "L",
        help: "The L2 penalty on the head's weights, per photo (l2/2 · |W|² is added to the mean loss); auto fits "
            + "scikit-learn's C = 10, 3, 1, 0.3, 0.1, 0.03, 0.01 (l2 = 1/(C·N)) and keeps the best on the validation photos. "
            + "With trained layers: their weight decay.", default: nil,
        defaultDescription: "auto with validation photos, else 1/N (scikit-learn's C = 1); 0 with trained layers"
    ) { text throws(UsageError) in
        if text == "auto" { return .auto }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw UsageError("--l2 expects a number >= 0 or auto, got '\(text)'")
        }
        return .strength(value)
    }
    static let labelSmoothing = Option<Double>(
        name: "label-smoothing", valueName: "E",
        help: "Train on targets (1 - E) on the photo's class plus E spread over all classes (0 <= E < 1).", default: 0,
        defaultDescription: "0"
    ) { text throws(UsageError) in
        guard let value = Double(text), value >= 0, value < 1 else {
            throw UsageError("--label-smoothing expects a number in [0, 1), got '\(text)'")
        }
        return value
    }
    static let epochs = Option<Int>(
        name: "epochs", valueName: "N",
        help:
            "The most L-BFGS iterations; each is one pass over all the features (an epoch). The fit stops earlier when it converges. "
            + "With --fine-tune or --hidden-units: the most epochs (15 by default; --patience may stop sooner).",
        default: 10_000, defaultDescription: "10000", transform: ValueParser.integer("epochs", in: 1...1_000_000))
    static let learningRate = Option<Double?>(
        name: "learning-rate", valueName: "R",
        help: "With --fine-tune or --hidden-units: the head's learning rate (1e-3 by default). Otherwise not used: L-BFGS "
            + "chooses each step by line search (accepted, with a warning, for Model Maker's scripts).",
        default: nil
    ) { text throws(UsageError) in
        guard let value = Double(text) else { throw UsageError("--learning-rate expects a number, got '\(text)'") }
        return value
    }
    static let quantize = Flag(
        name: "quantize",
        help: "Also write model_quantized.tflite, with UINT8 scores; with trained layers, those in int8 (per-channel "
            + "weights, ranges calibrated on the training photos), measured beside model.tflite.")
    static let name = Option<String?>(
        name: "name", valueName: "NAME", help: "The model's name in its metadata; the name of DIR by default.")
    static let version = Option<String>(
        name: "version", valueName: "V", help: "The model's version in its metadata.", default: "1", defaultDescription: "1"
    ) { $0 }
    static let cache = Option<String?>(
        name: "cache", valueName: "DIR", help: "Where features are cached; default $XDG_CACHE_HOME/swift-vision-tasks/features.")
    static let noCache = Flag(name: "no-cache", help: "Compute every feature; read and write no cache.")
    static let format = OutputFormat.option(allowing: [.table, .json], help: "The summary: table or json.")

    static let optionTable =
        [
            base.definition, output.definition, validation.definition, validationSplit.definition, seed.definition,
            featureTensor.definition, l2.definition, labelSmoothing.definition, epochs.definition, learningRate.definition,
            quantize.definition, name.definition, version.definition, cache.definition, noCache.definition,
            format.definition,
        ] + AugmentationOptionGroup.optionTable + FineTuningOptionGroup.optionTable + [
            ClassifierOptionGroup.threads.definition, BatchOptionGroup.folderJobs.definition,
            BatchOptionGroup.noProgress.definition,
            StandardOptions.verbose.definition,
        ]

    let settings: TrainingConfiguration
    let format: OutputFormat
    let progress: Bool
    let verbose: Bool
    let learningRateGiven: Bool
    /// Options of trained layers given to a frozen run, for a warning.
    let unusedFineTuningOptions: [String]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1, let data = parsed.positionals.first else {
            throw UsageError("give one DATA folder of class folders, got \(parsed.positionals.count) arguments")
        }
        let output = URL(fileURLWithPath: try parsed.required(Self.output))
        var settings = TrainingConfiguration(
            data: data.path, base: try parsed.required(Self.base), output: output,
            name: try parsed.value(Self.name) ?? output.lastPathComponent,
            description: "An image classifier trained by vision-tasks on \(data.path.description).")
        let folder = try parsed.value(Self.validation)
        let split = try parsed.value(Self.validationSplit)
        if folder != nil && split != nil { throw UsageError("give --validation or --validation-split, not both") }
        settings.validation = folder.map { .folder(FileSystemPath($0)) } ?? split.map { .split($0) } ?? .none
        settings.seed = try parsed.value(Self.seed)
        settings.featureTensor = try parsed.value(Self.featureTensor)
        let penalty = try parsed.value(Self.l2)
        if case .strength(let value) = penalty { settings.l2Strength = value }
        settings.searchesL2 = penalty == .auto
        settings.labelSmoothing = try parsed.value(Self.labelSmoothing)
        let epochs = try parsed.value(Self.epochs)
        let epochsGiven = parsed.contains(Self.epochs.definition) ? epochs : nil
        settings.fineTuning = try FineTuningOptionGroup.settings(
            parsed, epochs: epochsGiven, learningRate: try parsed.value(Self.learningRate))
        // --epochs bounds L-BFGS's iterations only for the frozen head; with trained layers it
        // counts their epochs, and `--fit-head-first`'s fit keeps its own bound (else 3 epochs
        // stopped it after 3 iterations, short of its optimum).
        if settings.fineTuning == nil {
            settings.maxIterations = epochs
            if penalty == .auto, settings.validation == .none {
                throw UsageError(
                    "--l2 auto chooses the penalty on the validation photos: give --validation DIR or --validation-split F, "
                        + "or a number")
            }
        } else {
            guard penalty != .auto else {
                throw UsageError(
                    "--l2 auto chooses the frozen head's penalty; with --fine-tune, --fine-tune-from or --hidden-units "
                        + "give a number (the trained layers' weight decay)")
            }
            settings.fineTuning?.weightDecay = settings.l2Strength ?? 0
        }
        settings.quantize = parsed.isSet(Self.quantize)
        settings.augmentation = try AugmentationOptionGroup.augmentation(parsed)
        settings.version = try parsed.value(Self.version)
        if !parsed.isSet(Self.noCache) {
            settings.cacheRoot =
                try parsed.value(Self.cache).map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FeatureCache.defaultRoot()
        }
        settings.workers = try parsed.value(BatchOptionGroup.folderJobs)
        settings.threads = try parsed.value(ClassifierOptionGroup.threads)
        self.settings = settings
        learningRateGiven = try parsed.value(Self.learningRate) != nil && settings.fineTuning == nil
        unusedFineTuningOptions = try FineTuningOptionGroup.unusedOptions(parsed)
        format = try parsed.value(Self.format)
        progress = !parsed.isSet(BatchOptionGroup.noProgress)
        verbose = parsed.isSet(StandardOptions.verbose)
    }

    func run() throws(UsageError) -> Int32 {
        if verbose { LiteRTLog.isShown = true }
        if learningRateGiven {
            StandardStreams.warn("warning: --learning-rate is not used: L-BFGS chooses each step by line search")
        }
        if !unusedFineTuningOptions.isEmpty {
            StandardStreams.warn(
                "warning: not used: \(unusedFineTuningOptions.joined(separator: ", ")) (only with trained layers: "
                    + "--fine-tune, --fine-tune-from, --hidden-units); this run fits a head on the frozen base with L-BFGS")
        }
        var line = ProgressLine(total: nil, requested: progress)
        let report: TrainingReport
        do throws(TasksError) {
            report = try ClassifierTrainer.train(settings) { event in TrainingProgressDisplay.show(event, on: &line) }
        } catch {
            line.clear()
            StandardStreams.reportError(error)
            return 1
        }
        line.clear()
        for path in report.ignored {
            StandardStreams.warn("\(TableText.escaped(path)): ignored: not a .jpg, .jpeg, .png or .webp photo in a class folder")
        }
        report.skippedFolders.map(SkippedFolders.line).forEach(StandardStreams.warn)
        for group in report.identicalPhotos where !report.conflictingLabels.contains(group) {
            StandardStreams.warn(
                "warning: identical photos (kept on one side of a split): \(group.map(TableText.escaped).joined(separator: ", "))"
            )
        }
        for group in report.conflictingLabels {
            StandardStreams.warn(
                "warning: identical photos filed under different classes (conflicting labels): "
                    + group.map(TableText.escaped).joined(separator: ", "))
        }
        if report.sharedValidationPhotos > 0 {
            StandardStreams.warn(
                "warning: \(report.sharedValidationPhotos) validation photos are training photos too (the same files or copies); "
                    + "the validation accuracy flatters the model")
        }
        if let ties = report.quantizedTies, ties > 0 {
            let photos = report.validationCount > 0 ? "validation" : "training"
            StandardStreams.warn(
                "warning: in model_quantized.tflite, \(ties) of \(report.quantizedTiesChecked) \(photos) photos get the same "
                    + "UINT8 score for their two best classes, which it cannot rank (scores within 1/256 of each other; "
                    + "--l2 \(String(format: "%.3g", report.l2Strength)) flattens them): use a smaller --l2, or model.tflite")
        }
        let fewest = FineTuningReport.fewestValidationPhotos(classes: report.classes.count)
        if report.fineTuning != nil, (1..<fewest).contains(report.validationCount) {
            StandardStreams.warn(
                "warning: only \(report.validationCount) validation photos for \(report.classes.count) classes: the best "
                    + "epoch and early stopping follow a validation loss that each photo moves a lot; give at least "
                    + "\(fewest) (more photos, or a larger --validation-split)")
        }
        if settings.validation != .none, report.validationCount == 0 {
            // A split keeps at least one photo of each class for training, so it may keep none for validation.
            let why =
                if case .split(let share) = settings.validation {
                    "--validation-split \(share) kept no photo for validation (each class keeps at least one photo, with its identical copies, for training)"
                } else { "no validation photo could be read (see the photos skipped above)" }
            StandardStreams.warn(
                "warning: \(why): nothing was measured on validation photos"
                    + (settings.fineTuning == nil && settings.l2Strength == nil ? ", and the penalty is 1/N" : ""))
        }
        if let check = report.quantizedCheck, check.isDegraded {
            let loss = (check.floatAccuracy - check.quantizedAccuracy) * 100
            let what =
                check.quantizedPredictedClasses <= 1
                ? "gives one class for every \(check.photos) photo"
                : "loses \(String(format: "%.1f", loss)) points of accuracy on the \(check.photos) photos"
            StandardStreams.warn(
                "warning: model_quantized.tflite \(what) (\(String(format: "%.5f", check.quantizedAccuracy)) against "
                    + "model.tflite's \(String(format: "%.5f", check.floatAccuracy))): ship model.tflite")
        }
        if report.converged == false, let gradientNorm = report.gradientNorm {
            // From λ = 1 on (the cross-entropy is at most log K), the weights are all but 0 and
            // the objective's decrease falls below double precision's rounding: only a smaller λ helps.
            let advice =
                report.l2Strength >= 1
                ? "--l2 \(String(format: "%.3g", report.l2Strength)) leaves the weights all but 0; give a smaller --l2"
                : "give more --epochs, a larger --l2, or another --feature-tensor"
            StandardStreams.warn(
                "warning: the fit did not converge (\(report.stopReason); gradient norm \(String(format: "%.3g", gradientNorm))): "
                    + "the model is the last point reached; \(advice)")
        }
        TrainingSummary.print(report, format: format)
        return 0
    }
}
