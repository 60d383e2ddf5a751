import Foundation
import ImageTasks
import Synchronization
import TasksCommon
import VisionTasks

/// `embed --quantize` without `--l2-normalize`: MediaPipe's scalar quantization (round(x·128),
/// clamped) is meant for unit-norm values, and raw embeddings clamp many values at the int8
/// limits. The values are kept as MediaPipe gives them; this counts the clamped ones over a run
/// so that the command can say so once.
final class SaturationCount: Sendable {
    private let counts = Mutex((saturated: 0, total: 0))

    /// Adds the quantized values of `output` (the int8 limits -128 and 127 count as clamped).
    func add(_ output: EmbeddingOutput) {
        var saturated = 0, total = 0
        for values in output.embeddings.compactMap(\.quantizedEmbedding) {
            total += values.count
            saturated += values.count { $0 == Int8.max || $0 == Int8.min }
        }
        counts.withLock { $0 = ($0.saturated + saturated, $0.total + total) }
    }

    /// The warning for more than 1% of the values clamped, or nil.
    var warning: String? {
        let (saturated, total) = counts.withLock { $0 }
        guard total > 0, saturated * 100 > total else { return nil }
        let share = String(format: "%.1f", Double(saturated) * 100 / Double(total))
        return "warning: --quantize clamped \(saturated) of \(total) values (\(share) %) at the int8 limits: the "
            + "embeddings are not unit-norm; give --l2-normalize too (the values are kept, as MediaPipe gives them)"
    }
}

/// An embedding task whose quantized outputs are counted in a `SaturationCount`.
struct SaturationCountingTask: ImageTask {
    let task: EmbeddingTask
    let count: SaturationCount

    func process(file path: FileSystemPath) throws(TasksError) -> EmbeddingOutput {
        let output = try task.process(file: path)
        count.add(output)
        return output
    }

    func process(encoded data: Data) throws(TasksError) -> EmbeddingOutput {
        let output = try task.process(encoded: data)
        count.add(output)
        return output
    }
}
