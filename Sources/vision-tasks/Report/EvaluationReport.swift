import Foundation
import ImageTasks
import Imaging
import TasksCommon

/// `evaluate --report FILE.html`: the figures, the confusion matrix drawn as a table whose
/// cells are shaded by their share of the row (the true class), and a card per mistake (its
/// thumbnail, true and predicted class) and per skipped photo; written when the run ends.
enum EvaluationReport {
    /// The most mistakes given a card: the report stays a few megabytes however bad the model.
    static let maximumMistakes = 300

    /// Writes the report.
    /// - Returns: whether it was written (else the error is on stderr).
    static func write(_ evaluation: DatasetEvaluation, model: String, to path: String) -> Bool {
        guard let file = ReportOption.open({ () throws(TasksError) in try ReportFile(path: path) }) else { return false }
        let metrics = evaluation.metrics
        file.write(
            ReportPage.start(
                title: "vision-tasks evaluate", subject: evaluation.folder.root.description,
                settings: [.init(name: "model", value: model), .init(name: "top-k", value: String(metrics.topK))]))
        for mistake in evaluation.mistakes.prefix(maximumMistakes) {
            let classes = metrics.classes
            let body =
                "<p class=\"none\">true: <b>\(HTMLText.shown(classes[mistake.label]))</b></p>"
                + ReportPage.bars(
                    [
                        .init(
                            name: mistake.predicted, score: mistake.score, index: classes.firstIndex(of: mistake.predicted) ?? -1)
                    ],
                    empty: "")
            file.write(card(mistake.image, body: body, failed: false))
        }
        for (image, error) in evaluation.skipped {
            file.write(card(image, body: ReportPage.error(error, what: "Skipped"), failed: true))
        }
        file.write(summary(metrics, evaluation: evaluation) + ReportPage.end)
        return !file.failed
    }

    private static func card(_ image: FileSystemPath, body: String, failed: Bool) -> String {
        let thumbnail = (try? ImageDecoder.decode(file: image)).flatMap {
            try? Thumbnail($0.pixels, orientation: $0.exifOrientation)
        }
        return "<article class=\"entry\(failed ? " failed" : "")\">\(ReportPage.picture(thumbnail))"
            + "<div class=\"body\"><h2>\(HTMLText.shown(image.description))</h2>\(body)</div></article>\n"
    }

    private static func summary(_ metrics: ClassificationMetrics, evaluation: DatasetEvaluation) -> String {
        let figure = EvaluationPrinter.figure
        let perClass = metrics.perClass.map {
            "<tr><td>\(HTMLText.shown($0.name))</td><td>\(figure($0.precision))</td><td>\(figure($0.recall))</td>"
                + "<td>\(figure($0.f1))</td><td>\($0.support)</td></tr>"
        }.joined()
        let other = metrics.otherPredictions.contains { $0 > 0 }
        let header = metrics.classes.map { "<th>\(HTMLText.shown($0))</th>" }.joined() + (other ? "<th>other</th>" : "")
        let rows = metrics.classes.indices.map { index in
            let name = metrics.classes[index]
            let row = metrics.confusionMatrix[index] + (other ? [metrics.otherPredictions[index]] : [])
            let total = max(row.reduce(0, +), 1)
            let cells = row.map { count in
                "<td style=\"background: rgba(47, 107, 220, \(String(format: "%.3f", 0.6 * Double(count) / Double(total))))\">\(count)</td>"
            }.joined()
            return "<tr><th>\(HTMLText.shown(name))</th>\(cells)</tr>"
        }.joined()
        let shown = min(evaluation.mistakes.count, maximumMistakes)
        return """
            <section class="summary" id="summary">
            <h2>Summary</h2>
            <p class="stats">accuracy <b>\(figure(metrics.accuracy))</b> over <b>\(metrics.count)</b> photos · \
            top-\(metrics.topK) accuracy <b>\(figure(metrics.topKAccuracy))</b> · \(evaluation.skipped.count) skipped · \
            \(ReportPage.count(evaluation.mistakes.count, "mistake"))\(shown < evaluation.mistakes.count ? " (the first \(shown) shown)" : "")</p>
            <h3>Per class</h3>
            <table class="spans"><tr><th>class</th><th>precision</th><th>recall</th><th>f1</th><th>support</th></tr>\(perClass)</table>
            <h3>Confusion matrix (rows: true class, columns: predicted class)</h3>
            <table class="spans confusion"><tr><th></th>\(header)</tr>\(rows)</table>
            </section>

            """
    }
}
