import FineTuning
import Foundation
import ImageTasks
import TasksCommon
import TrainingPipeline

/// What `train` shows while it runs: a bar with the time left while features are computed,
/// each skipped photo as a warning, then the fit's iteration and loss.
enum TrainingProgressDisplay {
    static func show(_ event: TrainingEvent, on line: inout ProgressLine) {
        switch event {
        case .features(let done, let total, let outcome):
            if case .failure(let error) = outcome.result {
                line.clear()
                let path = outcome.path.description
                StandardStreams.warn("\(TableText.escaped(path)): skipped: \(ErrorText.describe(error, imageFile: path))")
            }
            line.update(done: done, of: total)
        case .iteration(let progress):
            line.update(iteration: progress.iteration, loss: progress.objective)
        case .epoch(let record, let total):
            line.clear()
            StandardStreams.warn(epochLine(record, of: total))
        }
    }

    /// "epoch 3/15: loss 0.4123, validation loss 0.3810, accuracy 0.87097, 12.3 s, about 2.5 min left".
    static func epochLine(_ record: EpochRecord, of total: Int) -> String {
        var text = "epoch \(record.epoch)/\(total): loss \(String(format: "%.4f", record.loss))"
        if let loss = record.validationLoss, let accuracy = record.validationAccuracy {
            text += ", validation loss \(String(format: "%.4f", loss)), accuracy \(String(format: "%.5f", accuracy))"
        }
        text += ", \(String(format: "%.1f", record.seconds)) s"
        let left = Double(total - record.epoch) * record.seconds
        if left > 0 {
            text += left < 90 ? ", about \(Int(left.rounded())) s left" : ", about \(String(format: "%.1f", left / 60)) min left"
        }
        return text
    }
}

/// `train`'s summary on stdout: a table, or the `TrainingReport` as JSON.
enum TrainingSummary {
    static func print(_ report: TrainingReport, format: OutputFormat) {
        guard format != .json else {
            do {
                StandardStreams.emit(try JSONText.encode(report))
            } catch {
                StandardStreams.reportError(error)
            }
            return
        }
        let counts = zip(report.classes, report.trainingCounts).map { "\($0) \($1)" }.joined(separator: ", ")
        var lines = [
            "classes: \(report.classes.count) (training photos: \(counts))",
            "features: \(report.featureCount) per photo"
                + (report.augmentation.map(Self.views) ?? "")
                + ", \(report.computedFeatures) computed, \(report.cachedFeatures) read from "
                + "the cache, \(String(format: "%.1f", report.featureSeconds)) s"
                + (report.skipped.isEmpty ? "" : "; \(report.skipped.count) photos skipped (listed above)")
                + (report.skippedFolders.isEmpty
                    ? "" : "; \(report.skippedFolders.count) hidden or metadata folders skipped (listed above)"),
            fitLine(report),
            "training accuracy \(String(format: "%.5f", report.trainingAccuracy))"
                + (report.validationAccuracy.map {
                    "; validation accuracy \(String(format: "%.5f", $0)) (\(report.validationCount) photos)"
                } ?? ""),
        ]
        if let check = report.quantizedCheck {
            lines.append(
                "model_quantized.tflite (int8): accuracy \(String(format: "%.5f", check.quantizedAccuracy)), model.tflite "
                    + "\(String(format: "%.5f", check.floatAccuracy)), on the same \(check.count) \(check.photos) photos in LiteRT"
            )
        }
        lines.append(
            "time: features \(String(format: "%.1f", report.featureSeconds)) s, training \(String(format: "%.1f", report.fitSeconds)) s, "
                + "export \(String(format: "%.1f", max(0, report.totalSeconds - report.featureSeconds - report.fitSeconds))) s")
        lines.append("wrote \(report.output) in \(String(format: "%.1f", report.totalSeconds)) s")
        lines.forEach(StandardStreams.emit)
    }

    /// " and view (4 views per training photo, exposure ±0.5 stops, rotation ±10°)".
    private static func views(_ augmentation: Augmentation) -> String {
        var parts = ["\(augmentation.views) views per training photo"]
        if augmentation.exposure > 0 { parts.append("exposure ±\(String(format: "%g", augmentation.exposure)) stops") }
        if augmentation.rotation > 0 { parts.append("rotation ±\(String(format: "%g", augmentation.rotation))°") }
        return " and view (" + parts.joined(separator: ", ") + ")"
    }

    /// The fit: L-BFGS's iterations, or the epochs of trained layers and the best one.
    private static func fitLine(_ report: TrainingReport) -> String {
        guard let tuning = report.fineTuning else {
            let grid =
                report.l2Grid.isEmpty
                ? ""
                : "l2 chosen on the validation photos from "
                    + report.l2Grid.map { "\(String(format: "%.3g", $0.l2)) (\(String(format: "%.5f", $0.validationAccuracy)))" }
                    .joined(separator: ", ") + "\n"
            let iterations = "\(report.iterations) iteration\(report.iterations == 1 ? "" : "s")"
            return grid + "fit on \(report.trainingRows) rows: \(iterations), \(report.stopReason), "
                + "loss \(String(format: "%.6f", report.objective)), l2 \(String(format: "%.3g", report.l2Strength)), "
                + "\(String(format: "%.1f", report.fitSeconds)) s"
        }
        let trained =
            tuning.trainedLayers.isEmpty
            ? "a head on tensor \(tuning.cutTensor)"
            : "\(tuning.trainedLayers.count) layer\(tuning.trainedLayers.count == 1 ? "" : "s") of the base from tensor "
                + "\(tuning.cutTensor) \(tuning.cutShape) and the head"
        let hidden =
            tuning.hiddenUnits.isEmpty ? "" : " (hidden units \(tuning.hiddenUnits.map(String.init).joined(separator: ",")))"
        let best = tuning.epochs[tuning.bestEpoch - 1]
        return "trained \(trained)\(hidden) on \(report.trainingRows) rows: \(report.stopReason); best epoch \(tuning.bestEpoch) "
            + "(loss \(String(format: "%.4f", best.loss))"
            + (best.validationLoss.map { ", validation loss \(String(format: "%.4f", $0))" } ?? "") + "), "
            + "\(tuning.optimizer) at \(String(format: "%g", tuning.learningRate))"
            + (tuning.learningRateSchedule == "constant" ? "" : " with \(tuning.learningRateSchedule) decay")
            + (tuning.trainedLayers.isEmpty ? "" : " (base layers at \(String(format: "%g", tuning.baseLearningRateScale))x)")
            + ", \(String(format: "%.1f", report.fitSeconds)) s"
    }
}
