import Foundation
import ImageLabeling
import ImageTasks
import LabelingTasks
import TasksCommon

/// An AutoML export for the server: ML Kit's labeler, narrowed per request by the core's rules
/// (max_results, score_threshold as the confidence threshold, ML Kit's 0.5 when not given,
/// allow/deny lists of label texts). Records are `label --format json`'s objects; 10 labels by default.
package struct ServedLabeler: ServedTask {
    let task: LabelingTask

    /// - Throws: `TasksError` as `ImageLabeler.init(options:)`.
    package init(manifest: String) throws(TasksError) {
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: manifest))
        options.maxResultCount = Int.max
        // Every label: the request's score_threshold (ML Kit's default when absent) narrows them.
        options.confidenceThreshold = 0
        task = try LabelingTask(options: options)
    }

    package var kind: ServedTaskKind { .labeler }
    package var output: ServedOutput { .records }

    package func problem(with parameters: RequestParameters) -> String? {
        parameters.displayNamesLocale.map { "Parameter 'display_names_locale' ('\($0)') does not apply to an AutoML labeler." }
    }

    package func serve(_ image: Data, name: String, parameters: RequestParameters) throws(TasksError) -> ServedImage {
        let result = Result { () throws(TasksError) in
            LabelingOutput(labels: try Self.narrow(try task.process(encoded: image).labels, parameters: parameters))
        }
        let outcome = ImageOutcome(path: FileSystemPath(name), result: result)
        let labels = (try? outcome.result.get())?.labels ?? []
        return try ServedImage(
            outcome, ranked: labels.map { RankedCategory(score: $0.confidence, index: $0.index, label: $0.text) })
    }

    /// Every label narrowed by the request with the core's rules, as a one-head classifier's
    /// categories (`ClassificationPostprocessor`); ML Kit's defaults for what it leaves out (10
    /// labels, confidence 0.5).
    /// - Throws: `TasksError` invalidArgument for an allowlist that names no label.
    static func narrow(_ labels: [ImageLabel], parameters: RequestParameters) throws(TasksError) -> [ImageLabel] {
        let names = RequestParameters.labels(of: labels, index: \.index, name: { $0.text })
        let postprocessor = try parameters.postprocessor(
            labels: [names], defaultMaxResults: 10, defaultScoreThreshold: AutoMLImageLabelerOptions.defaultConfidenceThreshold)
        return postprocessor.narrow(labels, head: 0, index: \.index, score: \.confidence)
    }
}
