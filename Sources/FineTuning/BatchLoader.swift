import GraphSurgery
import TFLiteMetadata
import TasksCommon

extension Engine {
    /// Writes the examples at `indices` (at most `capacity`) into the input rows, in order, and
    /// their labels into `labels` (replaced, its storage reused).
    func load(_ examples: some TrainingExamples, indices: ArraySlice<Int>, epoch: Int, labels: inout [Int]) {
        let size = valueCounts[0]
        labels.removeAll(keepingCapacity: true)
        for (row, index) in indices.enumerated() {
            examples.fill(index, epoch: epoch, into: UnsafeMutableBufferPointer(start: input + row * size, count: size))
            labels.append(examples.label(of: index))
        }
    }
}

extension TailNetwork {
    /// Softmax probabilities for `examples` (no dropout, each example's epoch-0 view), in order:
    /// `[count][classCount]`; computed `batchSize` examples at a time (at least 1).
    package func probabilities(of examples: some TrainingExamples, batchSize: Int = 64) -> [[Float]] {
        let loss = SoftmaxCrossEntropy(classes: classCount, smoothing: 0)
        return rows(of: examples, batchSize: batchSize, size: classCount) { engine, labels in
            let labelsInRange = labels.map { min(max($0, 0), classCount - 1) }  // only the probabilities are used
            _ = loss.evaluate(
                engine.logits, rows: labels.count, labels: labelsInRange, weights: nil, divisor: labels.count,
                probabilities: engine.probabilities.pointer, gradient: nil)
            return UnsafePointer(engine.probabilities.pointer)
        }
    }

    /// The tail's output for `examples` (each example's epoch-0 view, no dropout), flattened, in
    /// order: the features the head reads, `[count][headInputCount]`. Without a tail, the inputs.
    package func tailOutputs(of examples: some TrainingExamples, batchSize: Int = 64) -> [[Float]] {
        rows(of: examples, batchSize: batchSize, size: headInputCount) { engine, _ in
            UnsafePointer(engine.values[pretrainedCount].pointer)
        }
    }

    /// Floats per example the head reads (the tail's output, flattened).
    package var headInputCount: Int { valueCounts[pretrainedCount] }

    /// The range of each value over `examples` (each example's epoch-0 view, no dropout),
    /// numbered as the exported `layers` read them (0 the input, `i + 1` layer i's output):
    /// the calibration of `--quantize`.
    package func calibration(of examples: some TrainingExamples, batchSize: Int = 64) -> TailCalibration {
        // The engine's values hold the dropout step's output after the pretrained layers; the
        // exported layers have no such value.
        let engineValues = (0..<valueCounts.count).filter { $0 != pretrainedCount + 1 }
        var low = [Float](repeating: .infinity, count: engineValues.count)
        var high = [Float](repeating: -.infinity, count: engineValues.count)
        forEachBatch(of: examples, batchSize: batchSize) { engine, count, _ in
            for (index, value) in engineValues.enumerated() {
                let floats = UnsafeBufferPointer(start: engine.values[value].pointer, count: count * valueCounts[value])
                for x in floats {
                    low[index] = min(low[index], x)
                    high[index] = max(high[index], x)
                }
            }
        }
        return TailCalibration(ranges: zip(low, high).map { $0 <= $1 ? $0...$1 : 0...0 })
    }

    /// `size` floats per example, in order, from the rows `read` points at after each batch's
    /// forward pass (given the batch's labels).
    private func rows(
        of examples: some TrainingExamples, batchSize: Int, size: Int,
        read: (Engine, [Int]) -> UnsafePointer<Float>
    ) -> [[Float]] {
        var result: [[Float]] = []
        result.reserveCapacity(examples.count)
        forEachBatch(of: examples, batchSize: batchSize) { engine, count, labels in
            let output = read(engine, labels)
            for row in 0..<count {
                result.append(Array(UnsafeBufferPointer(start: output + row * size, count: size)))
            }
        }
        return result
    }

    /// Runs the forward pass (no dropout) on `examples` in batches of `batchSize`, in order,
    /// calling `body` with the engine, the batch's size and its labels after each.
    private func forEachBatch(
        of examples: some TrainingExamples, batchSize: Int, body: (Engine, Int, [Int]) -> Void
    ) {
        precondition(examples.inputCount == inputCount, "\(examples.inputCount) floats per example for \(inputCount)")
        let capacity = max(1, min(batchSize, examples.count))
        let engine = Engine(network: self, capacity: capacity, dropout: 0)
        var labels: [Int] = []
        var noDropout: SplitMix64?
        for start in stride(from: 0, to: examples.count, by: capacity) {
            let indices = start..<min(start + capacity, examples.count)
            engine.load(examples, indices: ArraySlice(indices), epoch: 0, labels: &labels)
            engine.forward(count: indices.count, random: &noDropout)
            body(engine, indices.count, labels)
        }
    }

    /// The network with its logits layer's weights `[classCount, headInputCount]` and bias
    /// replaced: a head fitted first on `tailOutputs` (Keras's transfer-learning recipe: fit the
    /// head on the frozen base, then train the top of the base with it).
    /// - Throws: `TasksError.invalidArgument` when the head has hidden layers or the sizes differ.
    package func replacingLogits(weights: [Float], bias: [Float]) throws(TasksError) -> TailNetwork {
        guard layers.count == pretrainedCount + 1 else {
            throw .invalidArgument(
                "A fitted head replaces a head without hidden layers; this one has \(layers.count - pretrainedCount - 1).")
        }
        guard weights.count == classCount * headInputCount, bias.count == classCount else {
            throw .invalidArgument(
                "The fitted head has \(weights.count) weights and \(bias.count) biases; the network's head has "
                    + "\(classCount) × \(headInputCount) and \(classCount).")
        }
        var network = self
        network.parameters[parameters.count - 2] = weights
        network.parameters[parameters.count - 1] = bias
        return network
    }
}
