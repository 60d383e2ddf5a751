/// One category of a classification: a label index and its score.
/// Mirrors MediaPipe Tasks iOS `ResultCategory`.
public struct ResultCategory: Sendable, Equatable, Hashable {
    /// The index of the category in the model's output tensor (0-based).
    public var index: Int
    /// The score: a probability in [0, 1] for softmax models, after dequantization and
    /// calibration; a raw logit (any real number) for models without softmax.
    public var score: Float
    /// The label from the model's first label file, or nil when the model has no labels.
    public var categoryName: String?
    /// The label in the display-names locale, or nil when the model has no label file in that locale.
    public var displayName: String?

    /// Creates a category.
    public init(index: Int, score: Float, categoryName: String?, displayName: String?) {
        self.index = index
        self.score = score
        self.categoryName = categoryName
        self.displayName = displayName
    }
}
