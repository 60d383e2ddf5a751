import Foundation
import TasksCommon
import VisionTasks

/// `embed`: an `ImageEmbedder` in image mode with the image-processing options of a run.
package struct EmbeddingTask: MPImageTask {
    package let embedder: ImageEmbedder
    package let processing: ImageProcessing
    /// What made each head's embeddings, written into their records; nil leaves it out.
    package let sources: [EmbeddingSource]?

    /// - Parameter recordingSources: write each embedding's `EmbeddingSource` into its record
    ///   (`embed`'s output, for `similar --embeddings`).
    /// - Throws: as `ImageEmbedder.init(options:)`.
    package init(options: ImageEmbedderOptions, processing: ImageProcessing, recordingSources: Bool = false) throws(TasksError) {
        do {
            embedder = try ImageEmbedder(options: options)
        } catch {
            throw TasksError.wrapping(error)
        }
        self.processing = processing
        sources = recordingSources ? try EmbeddingSource.sources(of: options) : nil
    }

    package typealias Output = EmbeddingOutput

    package var inputImageSize: CGSize { embedder.inputImageSize }

    package func output(for image: MPImage) throws -> EmbeddingOutput {
        let result = try embedder.embed(image: image, regionOfInterest: processing.regionOfInterest)
        return EmbeddingOutput(embeddings: result.embeddingResult.embeddings, sources: sources)
    }
}

/// One image's embeddings: one `Embedding` per head.
package struct EmbeddingOutput: TaskOutput {
    package var embeddings: [Embedding]
    /// What made each head's embedding, by head index, when recorded.
    package var sources: [EmbeddingSource]?

    package init(embeddings: [Embedding], sources: [EmbeddingSource]? = nil) {
        self.embeddings = embeddings
        self.sources = sources
    }

    package static let recordKey = "embeddings"

    package var record: [EmbeddingRecord] {
        embeddings.map { embedding in
            let source = sources.flatMap { $0.indices.contains(embedding.headIndex) ? $0[embedding.headIndex] : nil }
            return EmbeddingRecord(embedding, source: source)
        }
    }

    /// The first head's values as one row of a numeric tensor (the server's [B, D] output and
    /// `embed --format npy`), or nil when there is no head.
    package var firstRow: TensorValues? {
        guard let first = embeddings.first else { return nil }
        return first.quantizedEmbedding.map(TensorValues.int8) ?? first.floatEmbedding.map(TensorValues.float32)
    }

    /// The first element that is not a finite number (quantized embeddings always are).
    package var failure: TasksError? {
        for embedding in embeddings {
            guard let values = embedding.floatEmbedding, let element = values.firstIndex(where: { !$0.isFinite }) else {
                continue
            }
            let place = embeddings.count > 1 ? "head \(embedding.headIndex), element \(element)" : "element \(element)"
            return TasksError(
                .outOfRangeError,
                "\(place) of the embedding is not a finite number (\(values[element])); the model's output is not a feature vector."
            )
        }
        return nil
    }
}

/// MediaPipe's `Embedding`: headIndex, headName (null when absent), and `floatEmbedding` or
/// `quantizedEmbedding` (signed values, as MediaPipe iOS gives them); `source` (what made it,
/// `EmbeddingSource`) in `embed`'s output.
package struct EmbeddingRecord: Codable, Equatable, Sendable {
    package let headIndex: Int
    package let headName: String?
    package let floatEmbedding: [Float]?
    package let quantizedEmbedding: [Int8]?
    package let source: EmbeddingSource?

    package init(_ embedding: Embedding, source: EmbeddingSource? = nil) {
        headIndex = embedding.headIndex
        headName = embedding.headName
        floatEmbedding = embedding.floatEmbedding
        quantizedEmbedding = embedding.quantizedEmbedding
        self.source = source
    }

    /// The record as an embedding again (for `similar --embeddings`).
    package var embedding: Embedding {
        Embedding(
            floatEmbedding: floatEmbedding, quantizedEmbedding: quantizedEmbedding, headIndex: headIndex, headName: headName)
    }

    /// Writes an absent name as null and leaves out the embedding that is not set.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(headIndex, forKey: .headIndex)
        try container.encode(headName, forKey: .headName)
        try container.encodeIfPresent(floatEmbedding, forKey: .floatEmbedding)
        try container.encodeIfPresent(quantizedEmbedding, forKey: .quantizedEmbedding)
        try container.encodeIfPresent(source, forKey: .source)
    }
}
