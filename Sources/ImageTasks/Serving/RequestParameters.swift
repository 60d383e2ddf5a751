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

    /// Applies the options to results sorted best first: the allow and deny lists, the score
    /// threshold (default `defaultScoreThreshold`), then the first `maxResults` (default
    /// `defaultMaxResults`).
    package func narrow<Item>(
        _ items: [Item], defaultMaxResults: Int, defaultScoreThreshold: Float = 0, name: (Item) -> String?,
        score: (Item) -> Float
    ) -> [Item] {
        let allow = Set(categoryAllowlist)
        let deny = Set(categoryDenylist)
        let threshold = scoreThreshold ?? defaultScoreThreshold
        let kept = items.filter { item in
            let label = name(item) ?? ""
            return score(item) >= threshold && (allow.isEmpty || allow.contains(label)) && !deny.contains(label)
        }
        let maxResults = maxResults ?? defaultMaxResults
        return maxResults < 0 ? kept : Array(kept.prefix(maxResults))
    }
}
