import FileSystem
import Foundation
import Imaging
import ModelDownloads
import TasksCommon
import TestSupport
import Testing
import VisionTasks

@testable import TrainingPipeline

/// `--augment`: four variants per photo by default (more with `--augment-views`), the same in
/// every run, a flip that is the upright photo flipped whatever the file's orientation, and
/// exposure and rotation computed on the pixels as stated.
struct AugmentationTests {
    @Test func variantsAreSeededByContentAndSeed() {
        let digest = String(repeating: "ab", count: 32)
        let variants = Augmentation().variants(digest: digest, seed: 1)
        #expect(variants.count == 4)
        #expect(variants[0] == .original && variants[1] == FeatureVariant(flipped: true))
        #expect(variants[2].crop == variants[3].crop && !variants[2].flipped && variants[3].flipped)
        let crop = variants[2].crop
        #expect(crop.width >= 0.7 && crop.width <= 1 && crop.height >= 0.7 && crop.height <= 1)
        #expect(crop.minX >= 0 && crop.maxX <= 1 + 1e-12 && crop.minY >= 0 && crop.maxY <= 1 + 1e-12)
        #expect(Augmentation().variants(digest: digest, seed: 1) == variants)
        #expect(Augmentation().variants(digest: digest, seed: 2)[2].crop != crop)
        #expect(Augmentation().variants(digest: String(repeating: "cd", count: 32), seed: 1)[2].crop != crop)
    }

    /// More views add crops after the first four, which stay those of four views (so their
    /// cached features are reused); exposure and angle change every view but the first,
    /// within their bounds, from a stream of their own (the crops do not move).
    @Test func moreViewsAndExposureAndRotationKeepTheFirstViews() {
        let digest = String(repeating: "ab", count: 32)
        let four = Augmentation().variants(digest: digest, seed: 1)
        let six = Augmentation(views: 6).variants(digest: digest, seed: 1)
        #expect(six.count == 6 && Array(six.prefix(4)) == four)
        #expect(six[4].crop == six[5].crop && !six[4].flipped && six[5].flipped && six[4].crop != four[2].crop)
        let changed = Augmentation(views: 6, exposure: 0.5, rotation: 10).variants(digest: digest, seed: 1)
        #expect(changed[0] == .original)
        #expect(changed.map(\.crop) == six.map(\.crop) && changed.map(\.flipped) == six.map(\.flipped))
        for variant in changed.dropFirst() {
            #expect(variant.exposure != 0 && abs(variant.exposure) <= 0.5, "\(variant)")
            #expect(variant.rotation != 0 && abs(variant.rotation) <= 10, "\(variant)")
            #expect(variant.cacheSuffix.contains("-ev") && variant.cacheSuffix.contains("-rot"))
        }
        #expect(Set(changed.map(\.exposure)).count == 6, "each view draws its own")
    }

    @Test func valuesOutOfRangeAreRefusedByName() {
        let names = ("augmentedViews", "augmentationExposure", "augmentationRotation")
        #expect(throws: TasksError.invalidArgument("augmentedViews must be 2 to 16 views per photo, got 1.")) {
            try Augmentation(views: 1).check(names: names)
        }
        #expect(throws: TasksError.invalidArgument("augmentationExposure must be 0 to 2 stops, got -0.5.")) {
            try Augmentation(exposure: -0.5).check(names: names)
        }
        #expect(throws: TasksError.invalidArgument("augmentationRotation must be 0 to 45 degrees, got 90.0.")) {
            try Augmentation(rotation: 90).check(names: names)
        }
    }

    /// One stop doubles each color value (clamped at 255), alpha kept; −1 halves it (rounded).
    @Test func exposureScalesTheColorsOnly() throws {
        let image = try PixelImage(
            bytes: [10, 100, 200, 255, 3, 0, 128, 7], width: 2, height: 1, bytesPerRow: nil, format: .rgba8)
        let brighter = try PixelAdjustment.apply(FeatureVariant(exposure: 1), to: image)
        #expect(brighter.bytes == [20, 200, 255, 255, 6, 0, 255, 7])
        let darker = try PixelAdjustment.apply(FeatureVariant(exposure: -1), to: image)
        #expect(darker.bytes == [5, 50, 100, 255, 2, 0, 64, 7])
    }

    /// Turning a 3x3 image by 90° counterclockwise moves the right column to the top row, and
    /// by 180° reverses it; a small angle on a flat image changes nothing (edges are clamped).
    @Test func rotationTurnsAboutTheCenter() throws {
        let image = try PixelImage(bytes: Array(1...9), width: 3, height: 3, bytesPerRow: nil, format: .gray8)
        #expect(try PixelAdjustment.apply(FeatureVariant(rotation: 90), to: image).bytes == [3, 6, 9, 2, 5, 8, 1, 4, 7])
        #expect(try PixelAdjustment.apply(FeatureVariant(rotation: 180), to: image).bytes == Array((1...9).reversed()))
        let flat = try PixelImage(
            bytes: [UInt8](repeating: 77, count: 5 * 4 * 3), width: 5, height: 4, bytesPerRow: nil, format: .rgb8)
        #expect(try PixelAdjustment.apply(FeatureVariant(rotation: 7), to: flat).bytes == flat.bytes)
    }

    /// A view with exposure and angle is embedded from the adjusted pixels, flipped as asked.
    @Test(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
    func adjustedViewsAreEmbeddedFromTheAdjustedPixels() throws {
        let extractor = try FeatureExtractor(base: TestData.model("mobilenet_v2_035_96_embedder_with_metadata.tflite").path)
        let augmentation = Augmentation(views: 2, exposure: 1, rotation: 20, seed: 3)
        let task = CachedFeatureTask(extractor: try extractor.task(threads: 1), cache: nil, augmentation: augmentation)
        let path = TestData.image("burger.jpg").path
        let output = try task.process(file: FileSystemPath(path))
        #expect(output.embeddings.count == 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let hasher = SHA256Hasher()
        hasher.update(bytes)
        let variant = augmentation.variants(digest: hasher.finalize(), seed: 3)[1]
        #expect(variant.flipped && variant.exposure != 0 && variant.rotation != 0)
        let image = try MPImage(contentsOfFile: path)
        let adjusted = MPImage(
            pixels: try PixelAdjustment.apply(variant, to: image.pixels), orientation: image.orientation.horizontallyFlipped)
        let expected = try task.extractor.embedder.embed(image: adjusted).embeddingResult.embeddings[0].floatEmbedding
        #expect(output.embeddings[1].floatEmbedding == expected)
        #expect(output.embeddings[0].floatEmbedding != expected)
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
