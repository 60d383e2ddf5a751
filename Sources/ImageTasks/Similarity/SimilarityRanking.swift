import TasksCommon
import VisionTasks

/// `similar`: photos ranked by the cosine similarity of their embeddings to a query's, as
/// MediaPipe's `ImageEmbedder.cosineSimilarity` computes it (near-duplicates first).
package enum SimilarityRanking {
    /// One ranked photo.
    package struct Match: Codable, Equatable, Sendable {
        /// The photo's path, as given or found.
        package let image: String
        /// The cosine similarity to the query, in [-1, 1].
        package let similarity: Double

        package init(image: String, similarity: Double) {
            self.image = image
            self.similarity = similarity
        }
    }

    /// The `top` candidates most similar to `query` (all when `top` is nil), most similar
    /// first; equal similarities keep the candidates' order. Each embedding is the first head's.
    /// - Throws: `TasksError` invalidArgument from `ImageEmbedder.cosineSimilarity` (different
    ///   sizes, float and quantized mixed, a zero norm), naming the candidate.
    package static func rank(
        query: Embedding, candidates: [(image: String, embedding: Embedding)], top: Int?
    ) throws(TasksError) -> [Match] {
        var matches: [Match] = []
        matches.reserveCapacity(candidates.count)
        for candidate in candidates {
            do {
                let similarity = try ImageEmbedder.cosineSimilarity(embedding1: query, embedding2: candidate.embedding)
                matches.append(Match(image: candidate.image, similarity: similarity))
            } catch {
                throw TasksError.wrapping(error).naming(.file(candidate.image))
            }
        }
        // A stable order: by similarity, then by position.
        let ranked = matches.enumerated().sorted { a, b in
            a.element.similarity != b.element.similarity ? a.element.similarity > b.element.similarity : a.offset < b.offset
        }.map(\.element)
        return top.map { Array(ranked.prefix($0)) } ?? ranked
    }
}
