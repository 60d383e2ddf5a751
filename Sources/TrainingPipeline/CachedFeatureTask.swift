import FileSystem
import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// A photo's features, from the cache when it has them for the photo's content, else from the
/// feature extractor (and then kept). Its output is an `EmbeddingOutput` with one embedding per
/// variant (one, or `Augmentation`'s views when augmenting), in the variants' order.
package struct CachedFeatureTask: ImageTask {
    package let extractor: EmbeddingTask
    package let cache: FeatureCache?
    /// The views of each photo (their seed set), or nil for the photo as it is.
    package let augmentation: Augmentation?
    /// Where the views read from the cache and those computed are counted (shared by the workers).
    package let counts: FeatureCounts

    package init(
        extractor: EmbeddingTask, cache: FeatureCache?, augmentation: Augmentation? = nil, counts: FeatureCounts = FeatureCounts()
    ) {
        self.extractor = extractor
        self.cache = cache
        self.augmentation = augmentation
        self.counts = counts
    }

    /// The same task, augmenting with `augmentation` (nil: not augmenting).
    package func augmenting(_ augmentation: Augmentation?) -> CachedFeatureTask {
        CachedFeatureTask(extractor: extractor, cache: cache, augmentation: augmentation, counts: counts)
    }

    /// - Throws: `TasksError` naming the file: unreadable, undecodable, or the model's error.
    package func process(file path: FileSystemPath) throws(TasksError) -> EmbeddingOutput {
        let bytes = Data(try FileReader.contents(of: path, as: .image))
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        let digest = hasher.finalize()
        let variants = augmentation.map { $0.variants(digest: digest, seed: $0.seed ?? 0) } ?? [.original]
        var image: MPImage?
        var embeddings: [Embedding] = []
        do throws(TasksError) {
            for (index, variant) in variants.enumerated() {
                let key = digest + variant.cacheSuffix
                var features = cache?.features(digest: key)
                if features != nil {
                    counts.add(cached: true)
                } else {
                    let decoded: MPImage
                    if let image { decoded = image } else { decoded = try decode(bytes) }
                    image = decoded
                    features = try embed(decoded, variant)
                    // Counted once computed: a photo that fails to decode is a skipped photo, not a computed view.
                    if let features {
                        counts.add(cached: false)
                        cache?.store(features, digest: key)
                    }
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
        let pixels = variant.changesPixels ? try PixelAdjustment.apply(variant, to: image.pixels) : image.pixels
        let shown = MPImage(
            pixels: pixels, orientation: variant.flipped ? image.orientation.horizontallyFlipped : image.orientation)
        do {
            return try extractor.embedder.embed(image: shown, regionOfInterest: variant.crop).embeddingResult.embeddings.first?
                .floatEmbedding
        } catch {
            throw TasksError.wrapping(error)
        }
    }
}
