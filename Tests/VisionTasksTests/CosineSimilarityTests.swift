import Testing
import VisionTasks

/// `ImageEmbedder.cosineSimilarity(embedding1:embedding2:)`: MediaPipe's values and its four errors.
struct CosineSimilarityTests {
    static func float(_ values: [Float]) -> Embedding {
        Embedding(floatEmbedding: values, quantizedEmbedding: nil, headIndex: 0, headName: nil)
    }

    static func quantized(_ values: [Int8]) -> Embedding {
        Embedding(floatEmbedding: nil, quantizedEmbedding: values, headIndex: 0, headName: nil)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let first: Embedding
        let second: Embedding
        let expected: Double
        var testDescription: String { id }
    }

    static let values: [Case] = [
        Case(id: "same direction", first: float([1, 2, 3]), second: float([2, 4, 6]), expected: 1),
        Case(id: "orthogonal", first: float([1, 0, 0]), second: float([0, 3, 0]), expected: 0),
        Case(id: "opposite", first: float([1, -2]), second: float([-1, 2]), expected: -1),
        Case(id: "45 degrees", first: float([1, 0]), second: float([1, 1]), expected: 0.5.squareRoot()),
        Case(id: "quantized", first: quantized([127, -128, 0]), second: quantized([127, -128, 0]), expected: 1),
        Case(id: "quantized, signed", first: quantized([-128, 0]), second: quantized([64, 64]), expected: -0.5.squareRoot()),
        // Both kinds set (not what an embedder gives): the floats are compared, as in MediaPipe.
        Case(
            id: "floats first",
            first: Embedding(floatEmbedding: [1, 0], quantizedEmbedding: [0, 1], headIndex: 0, headName: nil),
            second: Embedding(floatEmbedding: [1, 0], quantizedEmbedding: [1, 0], headIndex: 0, headName: nil), expected: 1),
    ]

    @Test(arguments: values)
    func similarity(_ item: Case) throws {
        let value = try ImageEmbedder.cosineSimilarity(embedding1: item.first, embedding2: item.second)
        #expect(abs(value - item.expected) <= 1e-12, "\(value)")
    }

    struct ErrorCase: CustomTestStringConvertible, Sendable {
        let id: String
        let first: Embedding
        let second: Embedding
        let message: String
        var testDescription: String { id }
    }

    static let errors: [ErrorCase] = [
        ErrorCase(
            id: "float and quantized", first: float([1, 2]), second: quantized([1, 2]),
            message: "Cannot compute cosine similarity between quantized and float embeddings."),
        ErrorCase(
            id: "quantized and float", first: quantized([1, 2]), second: float([1, 2]),
            message: "Cannot compute cosine similarity between quantized and float embeddings."),
        ErrorCase(
            id: "neither set", first: Embedding(floatEmbedding: nil, quantizedEmbedding: nil, headIndex: 0, headName: nil),
            second: float([1]), message: "Cannot compute cosine similarity between quantized and float embeddings."),
        ErrorCase(
            id: "different sizes", first: float([1, 2, 3]), second: float([1, 2, 3, 4]),
            message: "Cannot compute cosine similarity between embeddings of different sizes (3 vs. 4)."),
        ErrorCase(
            id: "different quantized sizes", first: quantized([1, 2]), second: quantized([1]),
            message: "Cannot compute cosine similarity between embeddings of different sizes (2 vs. 1)."),
        // MediaPipe's spelling.
        ErrorCase(
            id: "empty", first: float([]), second: float([]),
            message: "Cannot compute cosing similarity on empty embeddings."),
        ErrorCase(
            id: "zero norm", first: float([0, 0]), second: float([1, 2]),
            message: "Cannot compute cosine similarity on embedding with 0 norm."),
        ErrorCase(
            id: "zero norm, second", first: quantized([3, 4]), second: quantized([0, 0]),
            message: "Cannot compute cosine similarity on embedding with 0 norm."),
    ]

    @Test(arguments: errors)
    func error(_ item: ErrorCase) throws {
        let error = #expect(throws: TasksError.self) {
            try ImageEmbedder.cosineSimilarity(embedding1: item.first, embedding2: item.second)
        }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.message == item.message)
        #expect(error?.description == "INVALID_ARGUMENT: \(item.message)")
    }
}
