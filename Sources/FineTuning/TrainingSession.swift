import TasksCommon

/// One fine-tuning run's state: the engine, the optimizer, the seeded generators, the class
/// weights and the reused per-batch arrays.
final class TrainingSession {
    let engine: Engine
    private let optimizer: Optimizer
    private let settings: FineTuningSettings
    private let loss: SoftmaxCrossEntropy
    /// Per training example: its class's weight (nil when every example counts once).
    private let exampleWeights: [Float]?
    /// Which parameters are weights (not biases): the ones weight decay applies to.
    private let decays: [Bool]
    private var order: [Int]
    private var shuffler: SplitMix64
    private var dropoutRandom: SplitMix64
    private var labels: [Int] = []
    /// Optimizer steps taken, and the most the run can take (the schedule's T).
    private var steps = 0
    private let totalSteps: Int
    private var batchWeights: [Float] = []

    init(network: TailNetwork, training: some TrainingExamples, settings: FineTuningSettings) {
        let capacity = min(settings.batchSize, training.count)
        engine = Engine(network: network, capacity: capacity, dropout: Float(settings.dropout))
        let head = Float(settings.learningRate)
        let base = Float(settings.learningRate * settings.baseLearningRateScale)
        let rates = network.parameters.indices.map { $0 < network.pretrainedParameterCount ? base : head }
        optimizer = Optimizer(settings.optimizer, sizes: network.parameters.map(\.count), rates: rates)
        self.settings = settings
        loss = SoftmaxCrossEntropy(classes: network.classCount, smoothing: Float(settings.labelSmoothing))
        exampleWeights = Self.classWeights(training, classes: network.classCount, settings.classWeighting)
        decays = network.parameters.indices.map { $0.isMultiple(of: 2) }
        order = Array(0..<training.count)
        totalSteps = settings.epochs * ((training.count + capacity - 1) / capacity)
        // Separate streams per use, so that a change in one (say the dropout rate) leaves the shuffles alone.
        shuffler = SplitMix64(seed: settings.seed ^ 0x7368_7566_666C_65)
        dropoutRandom = SplitMix64(seed: settings.seed ^ 0x6472_6F70_6F75_74)
    }

    /// Per example, N / (classes × N_c) for its class c (scikit-learn's "balanced"); nil for `.none`.
    static func classWeights(_ examples: some TrainingExamples, classes: Int, _ weighting: ClassWeighting) -> [Float]? {
        guard weighting == .balanced else { return nil }
        var counts = [Int](repeating: 0, count: classes)
        for index in 0..<examples.count { counts[examples.label(of: index)] += 1 }
        let weights = counts.map { $0 == 0 ? 0 : Float(Double(examples.count) / Double(classes * $0)) }
        return (0..<examples.count).map { weights[examples.label(of: $0)] }
    }

    /// One pass over the shuffled training examples, one optimizer step per batch; returns the
    /// mean loss and the accuracy. Throws when a batch's loss is not finite.
    func trainEpoch(_ training: some TrainingExamples, epoch: Int) throws(TasksError) -> (loss: Double, accuracy: Double) {
        shuffler.shuffle(&order)
        var lossSum = 0.0
        var correct = 0
        for (batch, start) in stride(from: 0, to: order.count, by: engine.capacity).enumerated() {
            let indices = order[start..<min(start + engine.capacity, order.count)]
            let result = step(training, indices: indices, epoch: epoch)
            guard result.loss.isFinite else {
                throw .invalidArgument(
                    "The training loss became \(result.loss.isNaN ? "NaN" : "infinite") at epoch \(epoch), batch \(batch + 1) "
                        + "(learning rate \(settings.learningRate)): give a lower --learning-rate.")
            }
            lossSum += result.loss * Double(indices.count)
            correct += result.correct
        }
        return (lossSum / Double(order.count), Double(correct) / Double(order.count))
    }

    /// Gradients and an optimizer step on one batch; the batch's mean loss (with weight decay)
    /// and its count of right answers. No step when the loss is not finite.
    private func step(_ training: some TrainingExamples, indices: ArraySlice<Int>, epoch: Int) -> (loss: Double, correct: Int) {
        let result = computeGradients(training, indices: indices, epoch: epoch)
        if result.loss.isFinite {
            let rateScale = settings.learningRateSchedule.factor(step: steps, of: totalSteps)
            optimizer.step(engine.weights, gradients: engine.weightGradients, rateScale: rateScale)
            steps += 1
        }
        return result
    }

    /// Forward (dropout on), loss and backward on one batch: fills the engine's weight
    /// gradients (weight decay included) and returns the batch's mean loss and right answers.
    /// The gradients are left stale when the loss is not finite.
    func computeGradients(_ training: some TrainingExamples, indices: ArraySlice<Int>, epoch: Int) -> (loss: Double, correct: Int)
    {
        engine.load(training, indices: indices, epoch: epoch, labels: &labels)
        var random: SplitMix64? = dropoutRandom
        engine.forward(count: indices.count, random: &random)
        dropoutRandom = random!
        if let exampleWeights {
            batchWeights.removeAll(keepingCapacity: true)
            for index in indices { batchWeights.append(exampleWeights[index]) }
        }
        let evaluation = loss.evaluate(
            engine.logits, rows: indices.count, labels: labels, weights: exampleWeights == nil ? nil : batchWeights,
            divisor: indices.count, probabilities: engine.probabilities.pointer, gradient: engine.logitsGradient)
        let total = evaluation.loss / Double(indices.count) + decayLoss()
        guard total.isFinite else { return (total, evaluation.correct) }
        engine.backward(count: indices.count, inputGradient: false)
        addDecayGradient()
        return (total, evaluation.correct)
    }

    /// (decay / 2) · Σ w² over the weights (not the biases).
    private func decayLoss() -> Double {
        guard settings.weightDecay > 0 else { return 0 }
        var sum = 0.0
        for (index, weights) in engine.weights.enumerated() where decays[index] {
            for i in 0..<weights.count { sum += Double(weights.pointer[i]) * Double(weights.pointer[i]) }
        }
        return settings.weightDecay / 2 * sum
    }

    /// Adds decay · w to each weight's gradient.
    private func addDecayGradient() {
        guard settings.weightDecay > 0 else { return }
        let decay = Float(settings.weightDecay)
        for (index, weights) in engine.weights.enumerated() where decays[index] {
            let gradient = engine.weightGradients[index].pointer
            for i in 0..<weights.count { gradient[i] += decay * weights.pointer[i] }
        }
    }

    /// The mean cross-entropy (smoothed targets, no class weights, no dropout) and the accuracy on `examples`.
    func evaluate(_ examples: some TrainingExamples) -> (loss: Double, accuracy: Double) {
        var lossSum = 0.0
        var correct = 0
        var noDropout: SplitMix64?
        for start in stride(from: 0, to: examples.count, by: engine.capacity) {
            let indices = start..<min(start + engine.capacity, examples.count)
            engine.load(examples, indices: ArraySlice(indices), epoch: 0, labels: &labels)
            engine.forward(count: indices.count, random: &noDropout)
            let result = loss.evaluate(
                engine.logits, rows: indices.count, labels: labels, weights: nil, divisor: indices.count,
                probabilities: engine.probabilities.pointer, gradient: nil)
            lossSum += result.loss
            correct += result.correct
        }
        return (lossSum / Double(examples.count), Double(correct) / Double(examples.count))
    }
}
