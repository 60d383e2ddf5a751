import ClassifierTraining
import Foundation
import ImageTasks
import TasksCommon

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
        }
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
            "features: \(report.featureCount) per photo, \(String(format: "%.1f", report.featureSeconds)) s"
                + (report.skipped.isEmpty ? "" : "; \(report.skipped.count) photos skipped (listed above)"),
            "fit on \(report.trainingRows) rows: \(report.iterations) iterations, \(report.stopReason), loss \(String(format: "%.6f", report.objective)), "
                + "l2 \(String(format: "%.3g", report.l2Strength)), \(String(format: "%.1f", report.fitSeconds)) s",
            "training accuracy \(String(format: "%.5f", report.trainingAccuracy))"
                + (report.validationAccuracy.map {
                    "; validation accuracy \(String(format: "%.5f", $0)) (\(report.validationCount) photos)"
                } ?? ""),
        ]
        lines.append("wrote \(report.output) in \(String(format: "%.1f", report.totalSeconds)) s")
        lines.forEach(StandardStreams.emit)
    }
}
