import FineTuning
import Foundation
import TasksCommon

/// Labelled photos as the trained tail sees them: the frozen trunk's output for each view of
/// each photo (as it is, and `Augmentation`'s views when augmenting), one view drawn per photo
/// and epoch, seeded, so every epoch sees other crops and flips while the trunk runs once per view.
struct CachedViews: TrainingExamples {
    /// Every view's trunk output, photo after photo, each photo's views together.
    private let rows: [[Float]]
    /// The index in `rows` of each photo's first view, and its view count.
    private let firstRow: [Int]
    private let viewCounts: [Int]
    private let labels: [Int]
    /// Seeds the view drawn per photo and epoch; nil gives every photo's first view (as it is),
    /// for measuring.
    private let seed: UInt64?
    let inputCount: Int

    /// The photos of `set` (whose rows give each photo's views in a row, as `FeatureSet.extract`
    /// does), a view drawn per epoch with `seed`, or always the first with nil.
    init(_ set: FeatureSet, seed: UInt64?) {
        var firstRow: [Int] = []
        var viewCounts: [Int] = []
        var labels: [Int] = []
        for (index, image) in set.images.enumerated() {
            if index > 0, set.images[index - 1] == image {
                viewCounts[viewCounts.count - 1] += 1
            } else {
                firstRow.append(index)
                viewCounts.append(1)
                labels.append(set.labels[index])
            }
        }
        self.rows = set.rows
        self.firstRow = firstRow
        self.viewCounts = viewCounts
        self.labels = labels
        self.seed = seed
        inputCount = set.rows.first?.count ?? 0
    }

    var count: Int { firstRow.count }

    func label(of index: Int) -> Int { labels[index] }

    /// The class of every photo, in order.
    var allLabels: [Int] { labels }

    func fill(_ index: Int, epoch: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
        let views = viewCounts[index]
        var view = 0
        if views > 1, let seed {
            var generator = SplitMix64(seed: seed ^ (UInt64(epoch) &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(index) << 20)
            view = Int(generator.next() % UInt64(views))
        }
        rows[firstRow[index] + view].withUnsafeBufferPointer { source in
            _ = buffer.initialize(from: source)
        }
    }
}
