import VisionTasks

/// The time ranges over which one category stayed first, for the classify-video summary.
struct CategorySpans {
    /// A run of consecutive classified frames with the same top category.
    struct Span: Codable, Equatable {
        /// The top category's name (its index when the model has no labels; "" when no category passed).
        let category: String
        let index: Int?
        /// The first and last frame's timestamps, in milliseconds.
        let fromMilliseconds: Int
        var toMilliseconds: Int
        var frames: Int
    }

    private(set) var spans: [Span] = []

    /// Adds a frame's top category (of the first head).
    mutating func add(_ result: ImageClassifierResult) {
        let top = result.classificationResult.classifications.first?.categories.first
        let name = top.map { $0.categoryName ?? String($0.index) } ?? ""
        let time = result.timestampInMilliseconds
        if let last = spans.last, last.category == name {
            spans[spans.count - 1].toMilliseconds = time
            spans[spans.count - 1].frames += 1
        } else {
            spans.append(Span(category: name, index: top?.index, fromMilliseconds: time, toMilliseconds: time, frames: 1))
        }
    }
}
