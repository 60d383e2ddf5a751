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
