/// A label for an image. Mirrors ML Kit's `ImageLabel`.
public struct ImageLabel: Sendable, Equatable, Hashable {
    /// The label's text: the line of the AutoML labels file, or the label from the model's
    /// metadata; `""` when the model has no labels.
    public let text: String
    /// The confidence, in [0, 1] for probability models (the model's dequantized score).
    public let confidence: Float
    /// The index of the label in the model's output (0-based).
    public let index: Int

    /// Creates a label.
    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }
}
