/// Labelled examples as the tail sees them: the frozen trunk's output per photo, dequantized to float.
///
/// `fill` may give another augmented view of the same photo each epoch; the engine asks for each
/// example once per epoch (and once per validation pass) and never keeps the buffer.
package protocol TrainingExamples {
    /// The number of examples (≥ 0).
    var count: Int { get }
    /// Floats per example: the product of the tail's input shape without the batch dimension
    /// (for example 7 × 7 × 1024 for a `[1, 7, 7, 1024]` cut), in NHWC order.
    var inputCount: Int { get }
    /// The class of example `index` (0 ..< count), in 0 ..< the network's class count.
    func label(of index: Int) -> Int
    /// Writes example `index`'s `inputCount` floats (the view of `epoch`, 1-based; 0 for
    /// evaluation) into `buffer`, which holds exactly `inputCount` floats.
    func fill(_ index: Int, epoch: Int, into buffer: UnsafeMutableBufferPointer<Float>)
}
