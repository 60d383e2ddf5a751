import ImageTasks
import TaskRuntime
import TasksCommon

/// A request's options (MediaPipe's `ImageClassifierOptions` names in snake case, as OIP request
/// parameters and v1 query arguments). nil means the model's default.
package struct RequestParameters: Sendable, Equatable {
    /// Top-k per head; -1 for all; never 0.
    package var maxResults: Int?
    /// Categories scoring below this are dropped.
    package var scoreThreshold: Float?
    /// Category names to keep (empty: all).
    package var categoryAllowlist: [String] = []
    /// Category names to drop.
    package var categoryDenylist: [String] = []
    /// The display-names locale.
    package var displayNamesLocale: String?

    package init() {}

    /// Whether any classification option is set (an embedder takes none).
    package var narrowsCategories: Bool {
        maxResults != nil || scoreThreshold != nil || !categoryAllowlist.isEmpty || !categoryDenylist.isEmpty
            || displayNamesLocale != nil
    }

    /// The checks that need no model, the core's (`ClassificationPostprocessor.checkOptions`).
    /// - Throws: `TasksError` invalidArgument with MediaPipe's message (`max_results` 0, both lists).
    package func check() throws(TasksError) {
        try ClassificationPostprocessor.checkOptions(
            maxResults: maxResults ?? -1, allowlist: categoryAllowlist, denylist: categoryDenylist)
    }

    /// The core's postprocessing for these options on heads with `labels` (index `i` names
    /// category `i`; nil for a head without labels), with a task's defaults for what the request
    /// leaves out.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages (`ClassificationPostprocessor`).
    package func postprocessor(
        labels: [[String]?], defaultMaxResults: Int, defaultScoreThreshold: Float = 0
    ) throws(TasksError) -> ClassificationPostprocessor {
        try ClassificationPostprocessor(
            labels: labels, maxResults: maxResults ?? defaultMaxResults,
            scoreThreshold: scoreThreshold ?? defaultScoreThreshold, allowlist: categoryAllowlist,
            denylist: categoryDenylist)
    }

    /// The labels of one head from its items (every category of it, in any order): the name of
    /// category `i` at `i`, or nil when an item has no name (a model without labels).
    package static func labels<Item>(of items: [Item], index: (Item) -> Int, name: (Item) -> String?) -> [String]? {
        var labels = [String](repeating: "", count: (items.map(index).max() ?? -1) + 1)
        for item in items {
            guard let label = name(item) else { return nil }
            labels[index(item)] = label
        }
        return labels
    }
}
