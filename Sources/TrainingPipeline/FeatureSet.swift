import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// The features of labelled photos, in the photos' order, and the photos that gave none.
package struct FeatureSet: Sendable {
    /// One row of `dimension` features per kept photo (per variant of an augmented photo).
    package private(set) var rows: [[Float]] = []
    /// The class of each row.
    package private(set) var labels: [Int] = []
    /// The photo of each row.
    package private(set) var images: [FileSystemPath] = []
    /// The photos that could not be read or embedded, with why.
    package private(set) var skipped: [(image: FileSystemPath, error: TasksError)] = []

    package init() {}

    /// The features of `examples`, computed by `tasks` (one worker each; cached ones read).
    /// - Parameter each: called on the calling thread after each photo, in order.
    package static func extract(
        _ examples: [LabeledImageFolder.Example], tasks: [CachedFeatureTask],
        each: (ImageOutcome<EmbeddingOutput>) -> Void = { _ in }
    ) -> FeatureSet {
        var set = FeatureSet()
        var index = 0
        _ = BatchRunner.run(source: ImageSource(origin: .arguments(examples.map(\.input))), tasks: tasks) { outcome in
            // The runner keeps the input order, so outcome `index` is example `index`.
            let label = examples[index].label
            index += 1
            switch outcome.result {
            case .success(let output):
                // One row per variant (augmented photos give several).
                for features in output.embeddings.compactMap(\.floatEmbedding) {
                    set.rows.append(features)
                    set.labels.append(label)
                    set.images.append(outcome.path)
                }
            case .failure(let error): set.skipped.append((outcome.path, error))
            }
            each(outcome)
        }
        return set
    }
}

/// A fixed, seeded split of labelled photos into training and validation photos, class by
/// class (stratified, as Model Maker's and scikit-learn's splits are asked to be): each class
/// gives about round(fraction × its count) photos to validation, at least one when it has two or
/// more. Identical photos (the same `digests`) go to the same side, so that no validation photo
/// is a copy of a training photo of its class; a group counts as all its photos.
package enum ValidationSplit {
    /// - Parameter digests: each example's content digest (`PhotoDuplicates.digests`); nil, or a
    ///   nil entry, treats the photo as unique.
    /// - Precondition: 0 < `fraction` < 1.
    package static func split(
        _ examples: [LabeledImageFolder.Example], fraction: Double, seed: UInt64, digests: [String?]? = nil
    ) -> (training: [LabeledImageFolder.Example], validation: [LabeledImageFolder.Example]) {
        var generator = SplitMix64(seed: seed)
        var validationIndexes = Set<Int>()
        let classes = Dictionary(grouping: examples.indices, by: { examples[$0].label })
        for label in classes.keys.sorted() {
            let members = classes[label] ?? []
            var groups = Dictionary(grouping: members) { index in digests?[index] ?? "path:\(index)" }.values
                .map { $0 }.sorted { $0[0] < $1[0] }
            groups.shuffle(using: &generator)
            let target = members.count < 2 ? 0 : max(1, Int((fraction * Double(members.count)).rounded()))
            var taken = 0
            for group in groups where taken < target && members.count - taken - group.count >= 1 {
                validationIndexes.formUnion(group)
                taken += group.count
            }
        }
        let training = examples.indices.filter { !validationIndexes.contains($0) }.map { examples[$0] }
        let validation = examples.indices.filter { validationIndexes.contains($0) }.map { examples[$0] }
        return (training, validation)
    }
}
