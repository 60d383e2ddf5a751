import Foundation
import ImageTasks
import TasksCommon

/// Prints what `evaluate` measured: a table, one JSON object, or CSV.
struct EvaluationPrinter {
    /// `evaluate --format json`: the metrics' members, then the photos skipped and the files ignored.
    struct Record: Encodable {
        let metrics: ClassificationMetrics
        let skipped: [ImageOutcomeRecord<ClassificationOutput>]
        let ignored: [String]

        private enum CodingKeys: String, CodingKey { case skipped, ignored }

        func encode(to encoder: any Encoder) throws {
            try metrics.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(skipped, forKey: .skipped)
            try container.encode(ignored, forKey: .ignored)
        }
    }

    let evaluation: DatasetEvaluation

    /// Prints in `format`.
    /// - Returns: whether it could be printed (else the error is on stderr).
    func print(_ format: OutputFormat) -> Bool {
        let metrics = evaluation.metrics
        switch format {
        case .json:
            let record = Record(
                metrics: metrics,
                skipped: evaluation.skipped.map {
                    ImageOutcome<ClassificationOutput>(path: $0.image, result: .failure($0.error)).record
                },
                ignored: evaluation.folder.ignored.map(\.description))
            do {
                StandardStreams.emit(try JSONText.encode(record))
            } catch {
                StandardStreams.reportError(error)
                return false
            }
        case .csv:
            csvLines(metrics).forEach(StandardStreams.emit)
        default:
            tableLines(metrics).forEach(StandardStreams.emit)
        }
        return true
    }

    /// "; 2 labels of the model that no class folder has, listed with support 0", or "".
    static func absentNote(_ count: Int) -> String {
        count == 0
            ? "" : "; \(ReportPage.count(count, "label")) of the model that no class folder has, listed with support 0"
    }

    private func tableLines(_ metrics: ClassificationMetrics) -> [String] {
        let folder = evaluation.folder
        var notes: [String] = []
        if !evaluation.skipped.isEmpty { notes.append("\(evaluation.skipped.count) skipped") }
        if !folder.ignored.isEmpty { notes.append("\(ReportPage.count(folder.ignored.count, "file")) ignored") }
        let correct = (0..<metrics.classes.count).reduce(0) { $0 + metrics.confusionMatrix[$1][$1] }
        var lines = [
            "\(TableText.escaped(folder.root.description)): \(metrics.count) photos in \(folder.classes.count) classes"
                + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
                + Self.absentNote(evaluation.absentClasses.count),
            "accuracy \(Self.figure(metrics.accuracy)) (\(correct) of \(metrics.count)); "
                + "top-\(metrics.topK) accuracy \(Self.figure(metrics.topKAccuracy))",
            "",
        ]
        var rows = metrics.perClass.map {
            [
                TableText.escaped($0.name), Self.figure($0.precision), Self.figure($0.recall), Self.figure($0.f1),
                String($0.support),
            ]
        }
        // scikit-learn's classification_report rows.
        for (name, average) in [("macro avg", metrics.macroAverage), ("weighted avg", metrics.weightedAverage)] {
            rows.append([
                name, Self.figure(average.precision), Self.figure(average.recall), Self.figure(average.f1),
                String(average.support),
            ])
        }
        lines += TableText.aligned(
            header: ["class", "precision", "recall", "f1", "support"], rows: rows, indent: "  ", rightAligned: [1, 2, 3, 4])
        // The "other" column (predictions that are no class) only when there are some.
        let other = metrics.otherPredictions.contains { $0 > 0 }
        lines += [
            "",
            "confusion matrix (rows: true class; columns: predicted class by index, in the same order"
                + (other ? ", then other categories of the model)" : ")"),
        ]
        var matrixRows: [[String]] = []
        for (index, name) in metrics.classes.enumerated() {
            var row = ["\(index) \(TableText.escaped(name))"] + metrics.confusionMatrix[index].map(String.init)
            if other { row.append(String(metrics.otherPredictions[index])) }
            matrixRows.append(row)
        }
        var header = ["true \\ predicted"] + metrics.classes.indices.map { String($0) }
        if other { header.append("other") }
        lines += TableText.aligned(
            header: header, rows: matrixRows, indent: "  ", rightAligned: Set(1..<header.count))
        return lines
    }

    private func csvLines(_ metrics: ClassificationMetrics) -> [String] {
        let header: [String] =
            ["class", "precision", "recall", "f1", "support"] + metrics.classes.map { "predicted:\($0)" } + ["predicted:(other)"]
        var records: [[String]] = []
        for (index, figures) in metrics.perClass.enumerated() {
            let counts = metrics.confusionMatrix[index].map(String.init) + [String(metrics.otherPredictions[index])]
            records.append(
                [figures.name, "\(figures.precision)", "\(figures.recall)", "\(figures.f1)", "\(figures.support)"] + counts)
        }
        return ([header] + records).map { $0.map(CSVText.field).joined(separator: ",") }
    }

    /// A ratio with five decimals, as the tables print scores.
    static func figure(_ value: Double) -> String { String(format: "%.5f", value) }
}
