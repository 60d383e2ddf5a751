import FineTuning
import Foundation
import GraphSurgery
import TFLiteMetadata
import TasksCommon

/// Checks, before training, that the base's layers after the cut, rebuilt in float32, compute
/// what the quantized base computes: on a few training photos, the float tail's output on the
/// cached trunk output against the base's own features. A base whose layers this reading gets
/// wrong would otherwise train from a broken start and give a model that is silently worse.
enum TailCheck {
    /// The largest relative difference accepted, |ours − base| / |base| over the photos checked.
    /// The float tail skips the quantized layers' rounding: MobileNet v1's last block differs
    /// by about 1 %, three blocks of v2 by a few; a misread layer by far more.
    static let tolerance: Float = 0.1
    /// The photos compared.
    static let photoCount = 4

    /// - Throws: `TasksError` invalidArgument naming the base and the cut when the float tail
    ///   differs from the base by more than `tolerance`.
    static func check(_ network: TailNetwork, tail: ModelTail, base: FeatureExtractor, on set: FeatureSet) throws(TasksError) {
        let firstViews = set.images.indices.filter { $0 == 0 || set.images[$0 - 1] != set.images[$0] }.prefix(photoCount)
        guard !firstViews.isEmpty else { return }
        let ours = network.tailOutputs(of: Rows(rows: firstViews.map { set.rows[$0] }))
        let task = try base.task(threads: 1)
        var difference: Float = 0
        for (row, index) in firstViews.enumerated() {
            guard let theirs = try task.process(file: set.images[index]).embeddings.first?.floatEmbedding,
                theirs.count == ours[row].count
            else { continue }
            difference = max(difference, relativeDifference(ours[row], theirs))
        }
        guard difference <= tolerance else {
            throw .invalidArgument(
                "The base's layers after tensor \(tail.cut) do not compute in float32 what the quantized base computes "
                    + "(relative difference \(String(format: "%.3f", difference)) on \(firstViews.count) photos, more than "
                    + "\(tolerance)): fine-tuning would start from a broken model. Give fewer blocks (--fine-tune), "
                    + "another --fine-tune-from, or another base.", subject: .file(base.basePath))
        }
    }

    /// |a − b| / max(|b|, ε).
    private static func relativeDifference(_ a: [Float], _ b: [Float]) -> Float {
        var squared: Float = 0
        var norm: Float = 0
        for (x, y) in zip(a, b) {
            squared += (x - y) * (x - y)
            norm += y * y
        }
        return squared.squareRoot() / max(norm.squareRoot(), 1e-6)
    }

    /// Rows of trunk output as the network reads them (the labels are not used).
    private struct Rows: TrainingExamples {
        let rows: [[Float]]
        var count: Int { rows.count }
        var inputCount: Int { rows.first?.count ?? 0 }
        func label(of index: Int) -> Int { 0 }
        func fill(_ index: Int, epoch: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
            rows[index].withUnsafeBufferPointer { _ = buffer.initialize(from: $0) }
        }
    }
}
