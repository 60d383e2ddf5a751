import Foundation
import TasksCommon
import VisionTasks

/// One way the base sees a training photo: as it is, flipped left to right, a crop, and with
/// its exposure changed or turned by a small angle.
package struct FeatureVariant: Sendable, Hashable {
    /// Flipped left to right (after the photo's own orientation).
    package var flipped = false
    /// The region of interest, normalized, in the stored pixels' coordinates; `.zero` for all of it.
    package var crop = CGRect.zero
    /// The exposure change in stops: each color value times 2^exposure, clamped (Create ML's
    /// `exposure` augmentation); 0 for none.
    package var exposure = 0.0
    /// Turned about the center by this many degrees, counterclockwise, the corners filled with
    /// the nearest edge pixels (Create ML's `rotation`); 0 for none.
    package var rotation = 0.0

    package init(flipped: Bool = false, crop: CGRect = .zero, exposure: Double = 0, rotation: Double = 0) {
        self.flipped = flipped
        self.crop = crop
        self.exposure = exposure
        self.rotation = rotation
    }

    package static let original = FeatureVariant()

    /// Whether the variant changes the pixels themselves (not only how they are sampled).
    var changesPixels: Bool { exposure != 0 || rotation != 0 }

    /// What tells this variant's cached features apart from the others'.
    var cacheSuffix: String {
        guard self != .original else { return "" }
        let region =
            crop == .zero ? "" : String(format: "-crop%.4f,%.4f,%.4f,%.4f", crop.minX, crop.minY, crop.width, crop.height)
        let light = exposure == 0 ? "" : String(format: "-ev%.4f", exposure)
        let turn = rotation == 0 ? "" : String(format: "-rot%.4f", rotation)
        return (flipped ? "-flip" : "") + region + light + turn
    }
}

/// `train --augment`: each training photo is seen `views` times: as it is, flipped, then random
/// crops (70 to 100 % of each side at a random place), each crop as it is and flipped, so that
/// the head learns features that do not hinge on the side a garment faces or on the framing;
/// with `exposure` and `rotation`, every view but the first also gets a random exposure change
/// and angle within those bounds. Everything is drawn from the photo's content and the seed:
/// the same photo gets the same views in every run, so their features are cached like the
/// others. Training draws one view per photo and epoch; validation photos are never augmented.
package struct Augmentation: Codable, Sendable, Equatable {
    /// The views per photo, the photo as it is included: 2 to 16; 4 by default.
    package var views = 4
    /// The largest exposure change, in stops (0 to 2); 0 for none.
    package var exposure = 0.0
    /// The largest angle, in degrees (0 to 45); 0 for none.
    package var rotation = 0.0
    /// Seeds the views; nil uses the run's seed.
    package var seed: UInt64?

    package static let viewRange = 2...16
    package static let exposureRange = 0.0...2
    package static let rotationRange = 0.0...45

    package init(views: Int = 4, exposure: Double = 0, rotation: Double = 0, seed: UInt64? = nil) {
        self.views = views
        self.exposure = exposure
        self.rotation = rotation
        self.seed = seed
    }

    /// Refuses values out of range, naming each by `names` (its option or property name).
    /// - Throws: `TasksError` invalidArgument naming the value and its range.
    package func check(names: (views: String, exposure: String, rotation: String)) throws(TasksError) {
        guard Self.viewRange.contains(views) else {
            throw .invalidArgument("\(names.views) must be 2 to 16 views per photo, got \(views).")
        }
        guard Self.exposureRange.contains(exposure) else {
            throw .invalidArgument("\(names.exposure) must be 0 to 2 stops, got \(exposure).")
        }
        guard Self.rotationRange.contains(rotation) else {
            throw .invalidArgument("\(names.rotation) must be 0 to 45 degrees, got \(rotation).")
        }
    }

    /// The variants of the photo whose content has SHA-256 `digest`, with `seed`.
    package func variants(digest: String, seed: UInt64) -> [FeatureVariant] {
        let content = UInt64(digest.prefix(16), radix: 16) ?? 0
        var crops = SplitMix64(seed: seed ^ content)
        // Another stream for exposure and angle, so that the crops stay those of a run without them (and cached).
        var light = SplitMix64(seed: seed ^ content ^ 0x5DEE_CE66_D1CE_4E5B)
        var result: [FeatureVariant] = []
        var crop = CGRect.zero
        for index in 0..<max(1, views) {
            if index >= 2, index % 2 == 0 { crop = Self.randomCrop(using: &crops) }
            var variant = FeatureVariant(flipped: index % 2 == 1, crop: crop)
            if index > 0 {
                if exposure > 0 { variant.exposure = Double.random(in: -exposure...exposure, using: &light) }
                if rotation > 0 { variant.rotation = Double.random(in: -rotation...rotation, using: &light) }
            }
            result.append(variant)
        }
        return result
    }

    /// A crop keeping 70 to 100 % of each side, at a random place.
    private static func randomCrop(using generator: inout SplitMix64) -> CGRect {
        let width = Double.random(in: 0.7...1, using: &generator)
        let height = Double.random(in: 0.7...1, using: &generator)
        return CGRect(
            x: Double.random(in: 0...(1 - width), using: &generator), y: Double.random(in: 0...(1 - height), using: &generator),
            width: width, height: height)
    }
}
