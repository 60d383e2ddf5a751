import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// A classifier for the server: an `ImageClassifier` that returns every category (threshold 0,
/// all results), narrowed per request by the classifier's own rules (`narrow`): allow or deny
/// list, score threshold, then the first `max_results` (the core's order is a stable sort by
/// score, so cutting after it gives the same categories). Records are `classify
/// --format json`'s objects; the defaults are the command's (5 results, threshold 0). The
/// `display_names_locale` must be the one it was created with.
package struct ServedClassifier: ServedTask {
    let task: ClassificationTask
    /// The display-names locale the classifier was created with.
    let locale: String
    /// The model's path and threads, for the video-mode classifiers of `videoClassifier()`.
    let path: String
    let threads: Int

    /// - Throws: `TasksError` as `ImageClassifier.init(options:)`.
    package init(path: String, threads: Int, locale: String) throws(TasksError) {
        task = try ClassificationTask(
            options: Self.options(path: path, threads: threads, locale: locale), processing: ImageProcessing())
        self.locale = locale
        self.path = path
        self.threads = threads
    }

    private static func options(path: String, threads: Int, locale: String) -> ImageClassifierOptions {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = path
        options.baseOptions.threadCount = threads
        options.maxResults = -1
        options.scoreThreshold = 0
        options.displayNamesLocale = locale
        return options
    }

    package func summary() throws(TasksError) -> ModelSummary? { try ModelSummary(modelAt: path, servedLocale: locale) }

    /// A classifier of the same model and options in `.video` running mode.
    package func videoClassifier() throws(TasksError) -> ImageClassifier? {
        let options = Self.options(path: path, threads: threads, locale: locale)
        options.runningMode = .video
        do {
            return try ImageClassifier(options: options)
        } catch {
            throw .wrapping(error)
        }
    }

    package var kind: ServedTaskKind { .classifier }
    package var output: ServedOutput { .records }

    package func problem(with parameters: RequestParameters) -> String? {
        guard let asked = parameters.displayNamesLocale, asked != locale else { return nil }
        return
            "Parameter 'display_names_locale' is '\(asked)', but this server loaded display names for '\(locale)' (serve --locale)."
    }

    package func serve(_ image: Data, name: String, parameters: RequestParameters) throws(TasksError) -> ServedImage {
        let result = Result { () throws(TasksError) in
            ClassificationOutput(heads: try Self.narrow(try task.process(encoded: image).heads, parameters: parameters))
        }
        let outcome = ImageOutcome(path: FileSystemPath(name), result: result)
        let first = (try? outcome.result.get())?.heads.first?.categories ?? []
        return try ServedImage(
            outcome, ranked: first.map { RankedCategory(score: $0.score, index: $0.index, label: $0.categoryName) })
    }

    /// Each head's categories (all of them, best first) narrowed by the request with the core's
    /// rules (`ClassificationPostprocessor`, as a classifier created with these options would):
    /// an allowlist applies to the heads with at least one of its names, as in MediaPipe, and one
    /// matching no head at all is an error.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages: an allowlist that
    ///   matches no category, lists on a model without labels.
    static func narrow(_ heads: [Classifications], parameters: RequestParameters) throws(TasksError) -> [Classifications] {
        let labels = heads.map { RequestParameters.labels(of: $0.categories, index: \.index, name: \.categoryName) }
        let postprocessor = try parameters.postprocessor(labels: labels, defaultMaxResults: 5)
        return heads.enumerated().map { position, head in
            var head = head
            head.categories = postprocessor.narrow(head.categories, head: position, index: \.index, score: \.score)
            return head
        }
    }
}
