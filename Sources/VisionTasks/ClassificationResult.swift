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

/// The categories of one output head (one output tensor) of the model.
/// Mirrors MediaPipe Tasks iOS `Classifications`.
public struct Classifications: Sendable, Equatable {
    /// The index of the head (the output tensor), 0-based.
    public var headIndex: Int
    /// The head's name from the output tensor metadata; `""` when the model has none (as iOS).
    public var headName: String?
    /// The categories, highest score first (ties by index), after filtering and `maxResults`.
    public var categories: [ResultCategory]

    /// Creates the result of one head.
    public init(headIndex: Int, headName: String? = nil, categories: [ResultCategory]) {
        self.headIndex = headIndex
        self.headName = headName
        self.categories = categories
    }
}

/// The classifications of all heads for one image or frame.
/// Mirrors MediaPipe Tasks iOS `ClassificationResult`.
public struct ClassificationResult: Sendable, Equatable {
    /// One entry per output head, in head order.
    public var classifications: [Classifications]
    /// The timestamp of the input in milliseconds (synthetic in image mode: 0, 1000, 2000, ...).
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(classifications: [Classifications], timestampInMilliseconds: Int) {
        self.classifications = classifications
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}

/// What `ImageClassifier` returns. Mirrors MediaPipe Tasks iOS `ImageClassifierResult`.
public struct ImageClassifierResult: Sendable, Equatable {
    /// The classifications.
    public var classificationResult: ClassificationResult
    /// The timestamp of the input in milliseconds (the same as `classificationResult`'s).
    public var timestampInMilliseconds: Int

    /// Creates a result.
    public init(classificationResult: ClassificationResult, timestampInMilliseconds: Int) {
        self.classificationResult = classificationResult
        self.timestampInMilliseconds = timestampInMilliseconds
    }
}
