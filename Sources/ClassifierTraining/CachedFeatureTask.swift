import Foundation
import ImageTasks
import ModelDownloads
import TasksCommon
import VisionTasks

/// A photo's features, from the cache when it has them for the photo's content, else from the
/// feature extractor (and then kept). Its output is an `EmbeddingOutput` with one embedding.
package struct CachedFeatureTask: ImageTask {
    package let extractor: EmbeddingTask
    package let cache: FeatureCache?

    package init(extractor: EmbeddingTask, cache: FeatureCache?) {
        self.extractor = extractor
        self.cache = cache
    }

    /// - Throws: `TasksError` naming the file: unreadable, undecodable, or the model's error.
    package func process(file path: FileSystemPath) throws(TasksError) -> EmbeddingOutput {
        let bytes = Data(try FileReader.contents(of: path, as: .image))
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        let digest = hasher.finalize()
        if let features = cache?.features(digest: digest) {
            return EmbeddingOutput(embeddings: [
                Embedding(floatEmbedding: features, quantizedEmbedding: nil, headIndex: 0, headName: nil)
            ])
        }
        do throws(TasksError) {
            let output = try extractor.process(encoded: bytes)
            if let features = output.embeddings.first?.floatEmbedding { cache?.store(features, digest: digest) }
            return output
        } catch {
            throw error.naming(.file(path.description))
        }
    }

    package func process(encoded data: Data) throws(TasksError) -> EmbeddingOutput {
        try extractor.process(encoded: data)
    }
}
