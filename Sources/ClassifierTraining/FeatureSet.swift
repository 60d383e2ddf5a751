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
/// gives round(fraction × its count) photos to validation, at least one when it has two or more.
package enum ValidationSplit {
    /// - Precondition: 0 < `fraction` < 1.
    package static func split(
        _ examples: [LabeledImageFolder.Example], fraction: Double, seed: UInt64
    ) -> (training: [LabeledImageFolder.Example], validation: [LabeledImageFolder.Example]) {
        var generator = SplitMix64(seed: seed)
        var training: [LabeledImageFolder.Example] = []
        var validation: [LabeledImageFolder.Example] = []
        let classes = Dictionary(grouping: examples, by: \.label)
        for label in classes.keys.sorted() {
            var members = classes[label] ?? []
            members.shuffle(using: &generator)
            let count = members.count < 2 ? 0 : max(1, Int((fraction * Double(members.count)).rounded()))
            validation += members.prefix(count)
            training += members.dropFirst(count)
        }
        let order = Dictionary(uniqueKeysWithValues: examples.enumerated().map { ($1.input.path.description, $0) })
        let byOrder = { (a: LabeledImageFolder.Example, b: LabeledImageFolder.Example) in
            order[a.input.path.description, default: 0] < order[b.input.path.description, default: 0]
        }
        return (training.sorted(by: byOrder), validation.sorted(by: byOrder))
    }
}
