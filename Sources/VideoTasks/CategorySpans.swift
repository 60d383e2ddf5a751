import ImageTasks
import VisionTasks

/// The time ranges over which one category stayed first: the classify-video summary, its HTML
/// report's timeline and the server's video results.
package struct CategorySpans: Sendable {
    /// A run of consecutive classified frames with the same top category.
    package struct Span: Codable, Equatable, Sendable {
        /// The top category's name (its index when the model has no labels; "" when no category passed).
        package let category: String
        /// The top category's index; nil when no category passed.
        package let index: Int?
        /// The first and last frame's timestamps, in milliseconds.
        package let fromMilliseconds: Int
        package var toMilliseconds: Int
        /// The frames in the span.
        package var frames: Int
    }

    /// The spans so far, in time order.
    package private(set) var spans: [Span] = []

    /// No span yet.
    package init() {}

    /// Adds a frame's top category (of the first head).
    package mutating func add(_ result: ImageClassifierResult) {
        add(top: result.classificationResult.classifications.first?.categories.first, at: result.timestampInMilliseconds)
    }

    /// Adds a frame whose first head ranked `top` first (nil: no category passed), at `time` milliseconds.
    package mutating func add(top: ResultCategory?, at time: Int) {
        let name = top.map { $0.categoryName ?? String($0.index) } ?? ""
        if let last = spans.last, last.category == name {
            spans[spans.count - 1].toMilliseconds = time
            spans[spans.count - 1].frames += 1
        } else {
            spans.append(Span(category: name, index: top?.index, fromMilliseconds: time, toMilliseconds: time, frames: 1))
        }
    }
}
