import Foundation
import ImageLabeling
import ModelServer
import TasksCommon
import VisionTasks

/// A `--model` for the server: an `ImageClassifier` that returns every category (threshold 0,
/// all results), narrowed per request the way the classifier's own options would: allow or
/// deny list, score threshold, then the first `max_results` (the core's order is a stable
/// sort by score, so cutting after it gives the same categories). Records are `classify
/// --format json`'s objects; the defaults are the command's (5 results, threshold 0). The
/// `display_names_locale` must be the one it was created with.
struct ServedClassifier: ImageClassifying {
    let classifier: ImageClassifier
    /// The display-names locale the classifier was created with.
    let locale: String

    init(path: String, threads: Int, locale: String) throws {
        let options = ImageClassifierOptions()
        options.runningMode = .image
        options.baseOptions.modelAssetPath = path
        options.baseOptions.threadCount = threads
        options.maxResults = -1
        options.scoreThreshold = 0
        options.displayNamesLocale = locale
        classifier = try ImageClassifier(options: options)
        self.locale = locale
    }

    func problem(with parameters: ClassificationParameters) -> String? {
        guard let asked = parameters.displayNamesLocale, asked != locale else { return nil }
        return
            "Parameter 'display_names_locale' is '\(asked)', but this server loaded display names for '\(locale)' (serve --locale)."
    }

    func classify(_ image: Data, name: String, parameters: ClassificationParameters) throws(ImageFailure) -> ClassifiedImage {
        do {
            let result = try classifier.classify(image: MPImage(data: image))
            let heads = try Self.narrow(result.classificationResult.classifications, parameters: parameters)
            let record = ImageOutcomeRecord(image: name, classifications: heads.map(HeadRecord.init))
            let ranked = (heads.first?.categories ?? []).map {
                RankedCategory(score: $0.score, index: $0.index, label: $0.categoryName)
            }
            return ClassifiedImage(record: Data(try JSONText.encode(record).utf8), ranked: ranked)
        } catch let failure as ImageFailure {
            throw failure
        } catch {
            throw ImageFailure(ErrorText.message(TasksError.wrapping(error)))
        }
    }
}

extension ServedClassifier {
    /// Each head's categories (all of them) narrowed by the request. An allowlist applies to the
    /// heads with at least one of its names, as in MediaPipe; one matching no head at all is an
    /// error, as the core makes it for a classifier created with it.
    static func narrow(_ heads: [Classifications], parameters: ClassificationParameters) throws(ImageFailure) -> [Classifications]
    {
        let allow = Set(parameters.categoryAllowlist)
        let matches = heads.map { head in head.categories.contains { allow.contains($0.categoryName ?? "") } }
        if !allow.isEmpty, !matches.contains(true) {
            throw ImageFailure(
                "None of the names in 'category_allowlist' (\(allow.sorted().joined(separator: ", "))) is a category name "
                    + "of the model, so every category would be dropped.")
        }
        return zip(heads, matches).map { head, matched in
            var head = head
            var headParameters = parameters
            if !matched { headParameters.categoryAllowlist = [] }
            head.categories = RequestNarrowing.narrow(
                head.categories, parameters: headParameters, defaultMaxResults: 5, name: \.categoryName, score: \.score)
            return head
        }
    }
}

/// A `--label` for the server: ML Kit's labeler for an AutoML export, narrowed per request
/// (max_results, score_threshold as a confidence floor above the export's, allow/deny lists of
/// label texts). Records are `label --format json`'s objects; 10 labels by default.
struct ServedLabeler: ImageClassifying {
    let labeler: ImageLabeler

    init(manifest: String) throws {
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: manifest))
        options.maxResultCount = Int.max
        labeler = try ImageLabeler(options: options)
    }

    func problem(with parameters: ClassificationParameters) -> String? {
        parameters.displayNamesLocale.map { "Parameter 'display_names_locale' ('\($0)') does not apply to an AutoML labeler." }
    }

    func classify(_ image: Data, name: String, parameters: ClassificationParameters) throws(ImageFailure) -> ClassifiedImage {
        do {
            let labels = RequestNarrowing.narrow(
                try labeler.results(in: VisionImage(data: image)), parameters: parameters, defaultMaxResults: 10,
                name: \.text, score: \.confidence)
            let record = ImageOutcomeRecord(image: name, labels: labels.map(LabelRecord.init))
            let ranked = labels.map { RankedCategory(score: $0.confidence, index: $0.index, label: $0.text) }
            return ClassifiedImage(record: Data(try JSONText.encode(record).utf8), ranked: ranked)
        } catch {
            throw ImageFailure(ErrorText.message(TasksError.wrapping(error)))
        }
    }
}

/// Applies a request's options to results sorted best first.
enum RequestNarrowing {
    static func narrow<Item>(
        _ items: [Item], parameters: ClassificationParameters, defaultMaxResults: Int,
        name: (Item) -> String?, score: (Item) -> Float
    ) -> [Item] {
        let allow = Set(parameters.categoryAllowlist)
        let deny = Set(parameters.categoryDenylist)
        let threshold = parameters.scoreThreshold ?? 0
        let kept = items.filter { item in
            let label = name(item) ?? ""
            return score(item) >= threshold && (allow.isEmpty || allow.contains(label)) && !deny.contains(label)
        }
        let maxResults = parameters.maxResults ?? defaultMaxResults
        return maxResults < 0 ? kept : Array(kept.prefix(maxResults))
    }
}
