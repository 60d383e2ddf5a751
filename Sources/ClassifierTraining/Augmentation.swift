import Foundation
import VisionTasks

/// One way the base sees a training photo: as it is, flipped left to right, or a crop.
package struct FeatureVariant: Sendable, Hashable {
    /// Flipped left to right (after the photo's own orientation).
    package var flipped = false
    /// The region of interest, normalized, in the stored pixels' coordinates; `.zero` for all of it.
    package var crop = CGRect.zero

    package init(flipped: Bool = false, crop: CGRect = .zero) {
        self.flipped = flipped
        self.crop = crop
    }

    package static let original = FeatureVariant()

    /// What tells this variant's cached features apart from the others'.
    var cacheSuffix: String {
        guard self != .original else { return "" }
        let region =
            crop == .zero ? "" : String(format: "-crop%.4f,%.4f,%.4f,%.4f", crop.minX, crop.minY, crop.width, crop.height)
        return (flipped ? "-flip" : "") + region
    }
}

/// `train --augment`: each training photo is seen four times (as it is, flipped, a random crop,
/// and that crop flipped), so that the head learns features that do not hinge on the side a
/// garment faces or on the framing. The crop keeps 70 to 100 % of each side at a random place,
/// drawn from the photo's content and `--seed`: the same photo gets the same crop in every run,
/// so its features are cached like the others. Validation photos are never augmented.
package enum Augmentation {
    /// The variants of the photo whose content has SHA-256 `digest`.
    package static func variants(digest: String, seed: UInt64) -> [FeatureVariant] {
        var generator = SplitMix64(seed: seed ^ (UInt64(digest.prefix(16), radix: 16) ?? 0))
        let width = Double.random(in: 0.7...1, using: &generator)
        let height = Double.random(in: 0.7...1, using: &generator)
        let crop = CGRect(
            x: Double.random(in: 0...(1 - width), using: &generator), y: Double.random(in: 0...(1 - height), using: &generator),
            width: width, height: height)
        return [.original, FeatureVariant(flipped: true), FeatureVariant(crop: crop), FeatureVariant(flipped: true, crop: crop)]
    }
}
