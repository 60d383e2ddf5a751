import TasksCommon

/// MediaPipe's classification postprocessing after dequantization and calibration: category
/// filter and score threshold, then a stable sort (score descending, then index ascending),
/// then top-k (done as one selection of the best k when k is set).
///
/// The one home of the classification options' rules (`ImageClassifierOptions`' maxResults,
/// scoreThreshold, categoryAllowlist, categoryDenylist): the classifier applies them to its
/// scores, the server (`ServedClassifier`, `ServedLabeler`) to categories already ranked, so
/// both give MediaPipe's messages.
package struct ClassificationPostprocessor: Sendable {
    /// Top-k per head; negative means all.
    let maxResults: Int
    /// Scores below this are dropped.
    let scoreThreshold: Float
    /// Per head: which category indices may be returned, or nil for all.
    let allowed: [[Bool]?]

    /// Resolves the options against the heads' labels.
    /// - Throws: as `init(labels:maxResults:scoreThreshold:allowlist:denylist:)`.
    init(
        heads: [ClassificationHead], maxResults: Int, scoreThreshold: Float,
        allowlist: [String], denylist: [String]
    ) throws(TasksError) {
        try self.init(
            labels: heads.map(\.labels), maxResults: maxResults, scoreThreshold: scoreThreshold, allowlist: allowlist,
            denylist: denylist)
    }

    /// Resolves the options against each head's labels (index `i` names category `i`; nil for a
    /// head without labels).
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages for the options alone
    ///   (`checkOptions`) and for lists on a model without labels; and (deliberately unlike
    ///   MediaPipe, which then filters nothing) for an allowlist none of whose names is a label.
    package init(
        labels: [[String]?], maxResults: Int, scoreThreshold: Float, allowlist: [String], denylist: [String]
    ) throws(TasksError) {
        try Self.checkOptions(maxResults: maxResults, allowlist: allowlist, denylist: denylist)
        self.maxResults = maxResults
        self.scoreThreshold = scoreThreshold
        guard !(allowlist.isEmpty && denylist.isEmpty) else {
            allowed = labels.map { _ in nil }
            return
        }
        guard labels.allSatisfy({ $0 != nil }) else {
            throw .invalidArgument(
                "Using `category_allowlist` or `category_denylist` requires labels to be present "
                    + "in the TFLite Model Metadata but none was found.",
                subject: .option(allowlist.isEmpty ? "categoryDenylist" : "categoryAllowlist"))
        }
        let isAllowlist = !allowlist.isEmpty
        let names = Set(isAllowlist ? allowlist : denylist)
        allowed = labels.map { labels in
            let labels = labels ?? []
            guard labels.contains(where: names.contains) else { return nil }  // MediaPipe: no match, no filter
            return labels.map { names.contains($0) == isAllowlist }
        }
        if isAllowlist, allowed.allSatisfy({ $0 == nil }) {
            throw .invalidArgument(
                "None of the names in `category_allowlist` (\(allowlist.sorted().joined(separator: ", "))) "
                    + "is a category name of the model, so every category would be dropped.",
                subject: .option("categoryAllowlist"))
        }
    }

    /// MediaPipe's checks of the options that need no model: `maxResults` is not 0 and the two
    /// lists are not both set.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's message.
    package static func checkOptions(maxResults: Int, allowlist: [String], denylist: [String]) throws(TasksError) {
        guard maxResults != 0 else {
            throw .invalidArgument("Invalid `max_results` option: value must be != 0.", subject: .option("maxResults"))
        }
        guard allowlist.isEmpty || denylist.isEmpty else {
            throw .invalidArgument(
                "`category_allowlist` and `category_denylist` are mutually exclusive options.",
                subject: .option("categoryAllowlist"))
        }
    }

    /// Applies the options to one head's items already ranked in the core's order (best first,
    /// ties by index): the category filter and the score threshold, then the first `maxResults`.
    /// Cutting after the stable sort keeps exactly the categories ranking would have kept.
    /// - Parameters:
    ///   - head: the head's index in the labels the postprocessor was made with.
    ///   - index: an item's category index (into that head's labels).
    ///   - score: an item's score.
    package func narrow<Item>(
        _ ranked: [Item], head: Int, index: (Item) -> Int, score: (Item) -> Float
    ) -> [Item] {
        let mask = head < allowed.count ? allowed[head] : nil
        var kept: [Item] = []
        for item in ranked where maxResults < 0 || kept.count < maxResults {
            let category = index(item)
            guard score(item) >= scoreThreshold, mask.map({ category < $0.count && $0[category] }) ?? true else { continue }
            kept.append(item)
        }
        return kept
    }

    /// The categories of one head from its (dequantized, calibrated) scores.
    func categories(scores: [Float], head: ClassificationHead) -> [ResultCategory] {
        let keys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: Self.keyCapacity(categoryCount: scores.count))
        defer { keys.deallocate() }
        return scores.withUnsafeBufferPointer { categories(scores: $0, head: head, keys: keys) }
    }

    /// The working memory `categories(scores:head:keys:)` needs for a head of `categoryCount`
    /// categories, in keys.
    static func keyCapacity(categoryCount: Int) -> Int { 2 * categoryCount + 256 }

    /// The categories of one head from its (dequantized, calibrated) scores, using `keys` (at
    /// least `keyCapacity(categoryCount: scores.count)` elements) as working memory: nothing is
    /// allocated but the result.
    func categories(
        scores: UnsafeBufferPointer<Float>, head: ClassificationHead,
        keys: UnsafeMutableBufferPointer<UInt64>
    ) -> [ResultCategory] {
        let mask = allowed[head.index]
        let count = Self.rank(
            scores: scores, threshold: scoreThreshold, allowed: { mask?[$0] ?? true },
            maxResults: maxResults, keys: keys)
        return UnsafeMutableBufferPointer(rebasing: keys[0..<count]).map { key in
            let index = Self.index(of: key)
            return ResultCategory(
                index: index, score: scores[index],
                categoryName: head.labels?[index], displayName: head.displayNames?[index])
        }
    }

    /// The most results selected while scanning (insertion into a sorted list); above this, or
    /// for all results, every kept category is sorted at the end.
    static let selectionLimit = 64

    /// Ranks the categories whose score is at or above `threshold` and that `allowed` accepts:
    /// writes the keys (`sortKey`) of the first `maxResults` of them (all when negative) in
    /// order into `keys` (at least `keyCapacity(categoryCount: scores.count)` elements) and
    /// returns how many there are. The order is that of a stable sort by descending score:
    /// ties by ascending index, -0 equal to 0 as `==` has it (NaN never passes the threshold).
    static func rank(
        scores: UnsafeBufferPointer<Float>, threshold: Float, allowed: (Int) -> Bool, maxResults: Int,
        keys: UnsafeMutableBufferPointer<UInt64>
    ) -> Int {
        let selecting = maxResults > 0 && maxResults <= selectionLimit && maxResults < scores.count
        var kept = 0
        for index in scores.indices {
            let score = scores[index]
            guard score >= threshold, allowed(index) else { continue }
            let key = sortKey(score: score, index: index)
            guard selecting else {
                keys[kept] = key  // all of them, in index order: sorted below
                kept += 1
                continue
            }
            if kept == maxResults {
                // Full: the key replaces the worst kept one when it is better.
                guard key < keys[kept - 1] else { continue }
                kept -= 1
            }
            var position = kept
            while position > 0, keys[position - 1] > key {
                keys[position] = keys[position - 1]
                position -= 1
            }
            keys[position] = key
            kept += 1
        }
        guard !selecting else { return kept }
        sortByScore(keys.baseAddress.unsafelyUnwrapped, count: kept, scratch: keys.baseAddress.unsafelyUnwrapped + scores.count)
        return maxResults > 0 ? min(kept, maxResults) : kept
    }

    /// The category index a key holds.
    static func index(of key: UInt64) -> Int { Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: key)) }

    /// Sorts `count` keys that are in ascending index order by their high 32 bits, keeping that
    /// order among equal ones: a least-significant-digit radix sort, a byte per pass (passes
    /// where every key has the same byte are skipped), through `scratch` (`count + 256` keys).
    static func sortByScore(_ keys: UnsafeMutablePointer<UInt64>, count: Int, scratch: UnsafeMutablePointer<UInt64>) {
        guard count > 1 else { return }
        var source = keys, target = scratch
        let histogram = scratch + count
        for shift in stride(from: 32, to: 64, by: 8) {
            histogram.update(repeating: 0, count: 256)
            for index in 0..<count { histogram[Int((source[index] >> UInt64(shift)) & 0xFF)] += 1 }
            if histogram[Int((source[0] >> UInt64(shift)) & 0xFF)] == UInt64(count) { continue }
            // Bucket starts.
            var start: UInt64 = 0
            for bucket in 0..<256 {
                let size = histogram[bucket]
                histogram[bucket] = start
                start += size
            }
            for index in 0..<count {
                let key = source[index]
                let bucket = Int((key >> UInt64(shift)) & 0xFF)
                target[Int(histogram[bucket])] = key
                histogram[bucket] += 1
            }
            swap(&source, &target)
        }
        if source != keys { keys.update(from: source, count: count) }
    }

    /// The key that orders categories by descending score, then ascending index.
    @inline(__always)
    static func sortKey(score: Float, index: Int) -> UInt64 {
        let bits = (score == 0 ? 0 : score).bitPattern
        // Ascending with the score: negative values reversed, positive ones above them.
        let ascending = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
        return UInt64(~ascending) << 32 | UInt64(UInt32(truncatingIfNeeded: index))
    }
}
