import Foundation
import TasksCommon
import VisionTasks

/// `similar`'s work: keeps the embeddings of the queries and candidate photos (from an
/// `EmbeddingCache`, else made with the model), each checked to be comparable, then ranks the
/// candidates for each query with `SimilarityRanking`.
package struct SimilaritySearch {
    /// The size of the model's embedding (its first head): every kept embedding has it.
    package let dimension: Int
    /// The first head's float embedding of each image, by path text (as `embed` prints it).
    package private(set) var embeddings: [String: Embedding] = [:]
    /// Why each image that could not be embedded or compared failed, by path text.
    package private(set) var failures: [String: TasksError] = [:]
    /// Each embedded image's file identity, by path text: read once, not once per query.
    private var identities: [String: FileIdentity] = [:]

    package init(dimension: Int) {
        self.dimension = dimension
    }

    /// Keeps what an earlier `embed` printed for the same model (`EmbeddingCache.read`).
    /// - Throws: `TasksError` invalidArgument naming `file` and the image when an embedding's
    ///   size is not the model's (the file was made with another model).
    package mutating func keep(cached: [String: Embedding], from file: String) throws(TasksError) {
        for (image, embedding) in cached.sorted(by: { $0.key < $1.key }) {
            let count = embedding.floatEmbedding?.count ?? 0
            guard count == dimension else {
                throw .invalidArgument(
                    "The embedding of \(image) has \(count) values, but the model's has \(dimension): "
                        + "the file was made with another model.", subject: .file(file))
            }
            keep(embedding, for: image)
        }
    }

    /// The inputs that have no embedding (nor a failure) yet, each once, in order.
    package func missing(_ inputs: [ImageInput]) -> [ImageInput] {
        var seen = Set(embeddings.keys).union(failures.keys)
        return inputs.filter { seen.insert($0.path.description).inserted }
    }

    /// Embeds `inputs` with `tasks` (one worker each) and keeps each embedding or failure.
    package mutating func embed(_ inputs: [ImageInput], tasks: [EmbeddingTask]) {
        _ = BatchRunner.run(source: ImageSource(origin: .arguments(inputs)), tasks: tasks) { outcome in
            switch outcome.result {
            case .success(let output):
                if let first = output.embeddings.first { keep(first, for: outcome.path.description) }
            case .failure(let error): failures[outcome.path.description] = error
            }
        }
    }

    /// Keeps an embedding that can be compared; one with a zero norm (no direction) is a failure.
    private mutating func keep(_ embedding: Embedding, for image: String) {
        guard embedding.floatEmbedding?.contains(where: { $0 != 0 }) == true else {
            failures[image] = .invalidArgument(
                "The embedding is all zeros: it has no direction to compare (cosine similarity needs a non-zero norm).",
                subject: .file(image))
            return
        }
        embeddings[image] = embedding
        if identities[image] == nil { identities[image] = FileIdentity(FileSystemPath(image)) }
    }

    /// The `top` candidates (all when nil) most similar to `query`, most similar first, among
    /// those that have an embedding; each file counts once (the first name given for it), and
    /// the query's own file (under any name: a symbolic or hard link too) is left out.
    /// - Returns: the query's own error when it could not be embedded, or
    ///   `SimilarityRanking.rank`'s error.
    package func matches(
        for query: FileSystemPath, among candidates: [ImageInput], top: Int?
    ) -> Result<[SimilarityRanking.Match], TasksError> {
        guard let embedding = embeddings[query.description] else {
            return .failure(
                failures[query.description] ?? .invalidArgument("The query was not embedded.", subject: .file(query.description)))
        }
        var seen: Set<FileIdentity> = []
        if let own = identities[query.description] ?? FileIdentity(query) { seen.insert(own) }
        let others = candidates.compactMap { input -> (image: String, embedding: Embedding)? in
            guard let candidate = embeddings[input.path.description] else { return nil }
            if let identity = identities[input.path.description], !seen.insert(identity).inserted { return nil }
            return (input.path.description, candidate)
        }
        return Result { () throws(TasksError) in try SimilarityRanking.rank(query: embedding, candidates: others, top: top) }
    }
}
