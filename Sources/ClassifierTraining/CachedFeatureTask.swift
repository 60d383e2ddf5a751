import Foundation
import ImageTasks
import ModelDownloads
import TasksCommon
import VisionTasks

/// A photo's features, from the cache when it has them for the photo's content, else from the
/// feature extractor (and then kept). Its output is an `EmbeddingOutput` with one embedding per
/// variant (one, or `Augmentation`'s four when augmenting), in the variants' order.
package struct CachedFeatureTask: ImageTask {
    package let extractor: EmbeddingTask
    package let cache: FeatureCache?
    /// The seed of `Augmentation.variants`, or nil for the photo as it is.
    package let augmentationSeed: UInt64?
    /// Where the views read from the cache and those computed are counted (shared by the workers).
    package let counts: FeatureCounts

    package init(
        extractor: EmbeddingTask, cache: FeatureCache?, augmentationSeed: UInt64? = nil, counts: FeatureCounts = FeatureCounts()
    ) {
        self.extractor = extractor
        self.cache = cache
        self.augmentationSeed = augmentationSeed
        self.counts = counts
    }

    /// The same task, augmenting with `seed` (nil: not augmenting).
    package func augmenting(_ seed: UInt64?) -> CachedFeatureTask {
        CachedFeatureTask(extractor: extractor, cache: cache, augmentationSeed: seed, counts: counts)
    }

    /// - Throws: `TasksError` naming the file: unreadable, undecodable, or the model's error.
    package func process(file path: FileSystemPath) throws(TasksError) -> EmbeddingOutput {
        let bytes = Data(try FileReader.contents(of: path, as: .image))
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        let digest = hasher.finalize()
        let variants = augmentationSeed.map { Augmentation.variants(digest: digest, seed: $0) } ?? [.original]
        var image: MPImage?
        var embeddings: [Embedding] = []
        do throws(TasksError) {
            for (index, variant) in variants.enumerated() {
                let key = digest + variant.cacheSuffix
                var features = cache?.features(digest: key)
                counts.add(cached: features != nil)
                if features == nil {
                    let decoded: MPImage
                    if let image { decoded = image } else { decoded = try decode(bytes) }
                    image = decoded
                    features = try embed(decoded, variant)
                    if let features { cache?.store(features, digest: key) }
                }
                embeddings.append(Embedding(floatEmbedding: features, quantizedEmbedding: nil, headIndex: index, headName: nil))
            }
        } catch {
            throw error.naming(.file(path.description))
        }
        let output = EmbeddingOutput(embeddings: embeddings)
        if let failure = output.failure { throw failure.naming(.file(path.description)) }
        return output
    }

    package func process(encoded data: Data) throws(TasksError) -> EmbeddingOutput {
        try extractor.process(encoded: data)
    }

    private func decode(_ bytes: Data) throws(TasksError) -> MPImage {
        do {
            return try MPImage(data: bytes)
        } catch {
            throw TasksError.wrapping(error)
        }
    }

    private func embed(_ image: MPImage, _ variant: FeatureVariant) throws(TasksError) -> [Float]? {
        let shown = variant.flipped ? MPImage(pixels: image.pixels, orientation: image.orientation.horizontallyFlipped) : image
        do {
            return try extractor.embedder.embed(image: shown, regionOfInterest: variant.crop).embeddingResult.embeddings.first?
                .floatEmbedding
        } catch {
            throw TasksError.wrapping(error)
        }
    }
}
