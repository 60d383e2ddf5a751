import TasksCommon

extension Embedding {
    /// The cosine similarity of two embeddings: `u·v / √(‖u‖² ‖v‖²)`, in double precision,
    /// between -1 and 1. Compares the float embeddings when both have one, else the quantized
    /// ones, as MediaPipe's `CosineSimilarity` does.
    /// - Throws: `TasksError` invalidArgument with MediaPipe's messages when one embedding is
    ///   float and the other quantized, when their sizes differ, when they are empty, or when
    ///   one has a zero norm.
    package static func cosineSimilarity(_ u: Embedding, _ v: Embedding) throws(TasksError) -> Double {
        if let u = u.floatEmbedding, let v = v.floatEmbedding {
            return try cosineSimilarity(u, v, as: Double.init)
        }
        if let u = u.quantizedEmbedding, let v = v.quantizedEmbedding {
            return try cosineSimilarity(u, v, as: Double.init)
        }
        throw .invalidArgument("Cannot compute cosine similarity between quantized and float embeddings.")
    }

    private static func cosineSimilarity<Value>(
        _ u: [Value], _ v: [Value], as double: (Value) -> Double
    ) throws(TasksError) -> Double {
        guard u.count == v.count else {
            throw .invalidArgument(
                "Cannot compute cosine similarity between embeddings of different sizes (\(u.count) vs. \(v.count)).")
        }
        guard !u.isEmpty else {
            // MediaPipe's message, misspelling included, so that it can be searched for.
            throw .invalidArgument("Cannot compute cosing similarity on empty embeddings.")
        }
        var (dotProduct, normU, normV) = (0.0, 0.0, 0.0)
        for (a, b) in zip(u, v) {
            let (a, b) = (double(a), double(b))
            dotProduct += a * b
            normU += a * a
            normV += b * b
        }
        guard normU > 0, normV > 0 else {
            throw .invalidArgument("Cannot compute cosine similarity on embedding with 0 norm.")
        }
        return dotProduct / (normU * normV).squareRoot()
    }
}
