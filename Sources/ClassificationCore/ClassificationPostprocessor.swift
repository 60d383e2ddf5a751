import TasksCommon

/// MediaPipe's classification postprocessing after dequantization and calibration: category
/// filter and score threshold, then a stable sort (score descending, then index ascending),
/// then top-k.
struct ClassificationPostprocessor: Sendable {
    /// Top-k per head; negative means all.
    let maxResults: Int
    /// Scores below this are dropped.
    let scoreThreshold: Float
    /// Per head: which category indices may be returned, or nil for all.
    let allowed: [[Bool]?]

    /// Resolves the options against the heads' labels.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages for `maxResults == 0`,
    ///   both lists set, lists on a model without labels; and (deliberately unlike MediaPipe,
    ///   which then filters nothing) for an allowlist none of whose names is a label.
    init(heads: [ClassificationHead], maxResults: Int, scoreThreshold: Float,
         allowlist: [String], denylist: [String]) throws(TasksError) {
        guard maxResults != 0 else { throw .invalidArgument("Invalid `max_results` option: value must be != 0.", subject: .option("maxResults")) }
        guard allowlist.isEmpty || denylist.isEmpty else {
            throw .invalidArgument("`category_allowlist` and `category_denylist` are mutually exclusive options.",
                                   subject: .option("categoryAllowlist"))
        }
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        guard !(allowlist.isEmpty && denylist.isEmpty) else {
            allowed = heads.map { _ in nil }
            return
        }
        guard heads.allSatisfy({ $0.labels != nil }) else {
            throw .invalidArgument("Using `category_allowlist` or `category_denylist` requires labels to be present "
                + "in the TFLite Model Metadata but none was found.", subject: .option(allowlist.isEmpty ? "categoryDenylist" : "categoryAllowlist"))
        }
        let isAllowlist = !allowlist.isEmpty
        let names = Set(isAllowlist ? allowlist : denylist)
        allowed = heads.map { head in
            let labels = head.labels ?? []
            guard labels.contains(where: names.contains) else { return nil }  // MediaPipe: no match, no filter
            return labels.map { names.contains($0) == isAllowlist }
        }
        if isAllowlist, allowed.allSatisfy({ $0 == nil }) {
            throw .invalidArgument("None of the names in `category_allowlist` (\(allowlist.sorted().joined(separator: ", "))) "
                + "is a category name of the model, so every category would be dropped.", subject: .option("categoryAllowlist"))
        }
    }

    /// The categories of one head from its (dequantized, calibrated) scores.
    func categories(scores: [Float], head: ClassificationHead) -> [ResultCategory] {
        let mask = allowed[head.index]
        var kept: [(index: Int, score: Float)] = []
        kept.reserveCapacity(scores.count)
        for (index, score) in scores.enumerated() where score >= scoreThreshold && (mask?[index] ?? true) {
            kept.append((index, score))
        }
        kept.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        let top = maxResults > 0 ? kept.prefix(maxResults) : kept[...]
        return top.map { entry in
            ResultCategory(index: entry.index, score: entry.score,
                           categoryName: head.labels?[entry.index], displayName: head.displayNames?[entry.index])
        }
    }
}
