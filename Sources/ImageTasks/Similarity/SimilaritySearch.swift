import Foundation
import TasksCommon
import VisionTasks

/// `similar`'s work: embeds the queries and candidate photos that are not known yet (from an
/// `EmbeddingCache`), then ranks the candidates for each query with `SimilarityRanking`.
package struct SimilaritySearch {
    /// The first head's embedding of each image, by path text (as `embed` prints it).
    package private(set) var embeddings: [String: Embedding]
    /// Why each image that could not be embedded failed, by path text.
    package private(set) var failures: [String: TasksError] = [:]

    /// - Parameter cached: embeddings an earlier `embed` made (`EmbeddingCache.read`).
    package init(cached: [String: Embedding] = [:]) {
        embeddings = cached
    }

    /// The inputs that have no embedding yet, each once, in order.
    package func missing(_ inputs: [ImageInput]) -> [ImageInput] {
        var seen = Set(embeddings.keys)
        return inputs.filter { seen.insert($0.path.description).inserted }
    }

    /// Embeds `inputs` with `tasks` (one worker each) and keeps each embedding or failure.
    /// - Parameter failed: called on the calling thread with each image that could not be
    ///   embedded, in input order.
    package mutating func embed(
        _ inputs: [ImageInput], tasks: [EmbeddingTask], failed: (FileSystemPath, TasksError) -> Void
    ) {
        _ = BatchRunner.run(source: ImageSource(origin: .arguments(inputs)), tasks: tasks) { outcome in
            switch outcome.result {
            case .success(let output): embeddings[outcome.path.description] = output.embeddings.first
            case .failure(let error):
                failures[outcome.path.description] = error
                failed(outcome.path, error)
            }
        }
    }

    /// The `top` candidates (all when nil) most similar to `query`, most similar first, among
    /// those that have an embedding; the query's own file (however named) is left out.
    /// - Returns: the query's own error when it could not be embedded, invalidArgument naming it
    ///   when it was not embedded at all, or `SimilarityRanking.rank`'s error.
    package func matches(
        for query: FileSystemPath, among candidates: [ImageInput], top: Int?
    ) -> Result<[SimilarityRanking.Match], TasksError> {
        guard let embedding = embeddings[query.description] else {
            return .failure(
                failures[query.description] ?? .invalidArgument("The query was not embedded.", subject: .file(query.description)))
        }
        let own = query.canonical
        let others = candidates.compactMap { input -> (image: String, embedding: Embedding)? in
            guard let candidate = embeddings[input.path.description], own == nil || input.path.canonical != own else {
                return nil
            }
            return (input.path.description, candidate)
        }
        return Result { () throws(TasksError) in try SimilarityRanking.rank(query: embedding, candidates: others, top: top) }
    }
}

extension FileSystemPath {
    /// The file's canonical path (symbolic links and `..` resolved), or nil when it has none.
    /// The corresponding C function is `realpath`.
    fileprivate var canonical: [UInt8]? {
        withCString { name in
            guard let canonical = realpath(name, nil) else { return nil }
            defer { free(canonical) }
            return Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(canonical).assumingMemoryBound(to: UInt8.self), count: strlen(canonical)))
        }
    }
}
