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
