import ClassifierTraining
import Foundation
import Imaging
import TestSupport
import Testing
import VisionTasks

/// `--augment`: four variants per photo, the same in every run, and a flip that is the upright
/// photo flipped whatever the file's orientation.
struct AugmentationTests {
    @Test func variantsAreSeededByContentAndSeed() {
        let digest = String(repeating: "ab", count: 32)
        let variants = Augmentation.variants(digest: digest, seed: 1)
        #expect(variants.count == 4)
        #expect(variants[0] == .original && variants[1] == FeatureVariant(flipped: true))
        #expect(variants[2].crop == variants[3].crop && !variants[2].flipped && variants[3].flipped)
        let crop = variants[2].crop
        #expect(crop.width >= 0.7 && crop.width <= 1 && crop.height >= 0.7 && crop.height <= 1)
        #expect(crop.minX >= 0 && crop.maxX <= 1 + 1e-12 && crop.minY >= 0 && crop.maxY <= 1 + 1e-12)
        #expect(Augmentation.variants(digest: digest, seed: 1) == variants)
        #expect(Augmentation.variants(digest: digest, seed: 2)[2].crop != crop)
        #expect(Augmentation.variants(digest: String(repeating: "cd", count: 32), seed: 1)[2].crop != crop)
    }

    /// Flipping twice is the identity, and a flip of an orientation is its mirror with the
    /// rotation reversed: `.right` (90° clockwise) flipped shows as `.leftMirrored`.
    @Test(arguments: [
        (ImageOrientation.up, ImageOrientation.upMirrored), (.right, .leftMirrored), (.down, .downMirrored),
        (.left, .rightMirrored),
    ])
    func flips(orientation: ImageOrientation, flipped: ImageOrientation) {
        #expect(orientation.horizontallyFlipped == flipped)
        #expect(flipped.horizontallyFlipped == orientation)
    }

    /// The flipped variant's features are those of the photo's pixels flipped by hand.
    @Test(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
    func theFlippedFeaturesAreTheFlippedPhotos() throws {
        let extractor = try FeatureExtractor(base: TestData.model("mobilenet_v2_035_96_embedder_with_metadata.tflite").path)
        let task = try extractor.task(threads: 1)
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let pixels = image.pixels
        var mirrored = [UInt8](repeating: 0, count: pixels.width * pixels.height * 3)
        let source = pixels.bytes
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                for c in 0..<3 {
                    mirrored[(y * pixels.width + pixels.width - 1 - x) * 3 + c] = source[y * pixels.bytesPerRow + x * 3 + c]
                }
            }
        }
        let byHand = try MPImage(pixels: Data(mirrored), width: pixels.width, height: pixels.height, format: .rgb8)
        let expected = try task.embedder.embed(image: byHand).embeddingResult.embeddings[0].floatEmbedding
        let flipped = MPImage(pixels: image.pixels, orientation: image.orientation.horizontallyFlipped)
        let ours = try task.embedder.embed(image: flipped).embeddingResult.embeddings[0].floatEmbedding
        let worst = zip(ours ?? [], expected ?? []).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst < 1e-4, "largest difference \(worst)")
    }
}
