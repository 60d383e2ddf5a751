import Foundation
import ImageLabeling
import TasksCommon

/// An AutoML export for the server: ML Kit's labeler, narrowed per request (max_results,
/// score_threshold as the confidence threshold, ML Kit's 0.5 when not given, allow/deny lists of
/// label texts). Records are `label --format json`'s objects; 10 labels by default.
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

    package var kind: String { "labeler" }
    package var verb: String { "classify" }
    package var output: ServedOutput { .records }

    package func problem(with parameters: RequestParameters) -> String? {
        parameters.displayNamesLocale.map { "Parameter 'display_names_locale' ('\($0)') does not apply to an AutoML labeler." }
    }

    package func serve(_ image: Data, name: String, parameters: RequestParameters) throws(TasksError) -> ServedImage {
        let result = Result { () throws(TasksError) in
            LabelingOutput(
                labels: parameters.narrow(
                    try task.process(encoded: image).labels, defaultMaxResults: 10,
                    defaultScoreThreshold: AutoMLImageLabelerOptions.defaultConfidenceThreshold, name: \.text,
                    score: \.confidence))
        }
        let outcome = ImageOutcome(path: FileSystemPath(name), result: result)
        let labels = (try? outcome.result.get())?.labels ?? []
        return try ServedImage(
            outcome, ranked: labels.map { RankedCategory(score: $0.confidence, index: $0.index, label: $0.text) })
    }
}
