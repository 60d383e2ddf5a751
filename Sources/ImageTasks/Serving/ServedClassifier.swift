import Foundation
import TasksCommon
import VisionTasks

/// A classifier for the server: an `ImageClassifier` that returns every category (threshold 0,
/// all results), narrowed per request the way the classifier's own options would: allow or
/// deny list, score threshold, then the first `max_results` (the core's order is a stable
/// sort by score, so cutting after it gives the same categories). Records are `classify
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

    package var kind: String { "classifier" }
    package var verb: String { "classify" }
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

    /// Each head's categories (all of them) narrowed by the request. An allowlist applies to the
    /// heads with at least one of its names, as in MediaPipe; one matching no head at all is an
    /// error, as the core makes it for a classifier created with it.
    /// - Throws: `TasksError` invalidArgument for an allowlist that matches no category.
    static func narrow(_ heads: [Classifications], parameters: RequestParameters) throws(TasksError) -> [Classifications] {
        let allow = Set(parameters.categoryAllowlist)
        let matches = heads.map { head in head.categories.contains { allow.contains($0.categoryName ?? "") } }
        if !allow.isEmpty, !matches.contains(true) {
            throw .invalidArgument(
                "None of the names in 'category_allowlist' (\(allow.sorted().joined(separator: ", "))) is a category name "
                    + "of the model, so every category would be dropped.")
        }
        return zip(heads, matches).map { head, matched in
            var head = head
            var headParameters = parameters
            if !matched { headParameters.categoryAllowlist = [] }
            head.categories = headParameters.narrow(
                head.categories, defaultMaxResults: 5, name: \.categoryName, score: \.score)
            return head
        }
    }
}
