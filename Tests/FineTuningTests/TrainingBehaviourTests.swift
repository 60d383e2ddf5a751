import Foundation
import GraphSurgery
import TFLiteMetadata
import TasksCommon
import Testing

@testable import FineTuning

/// Training on small synthetic problems: learning, determinism, early stopping, class weights.
struct TrainingBehaviourTests {
    /// 3 classes of [4, 4, 2] inputs: class k raises channel k % 2 in row k, plus noise.
    static func separable(count: Int, seed: UInt64, labelShift: Int = 0) -> ArrayExamples {
        var random = TestRandom(seed)
        var inputs: [[Float]] = []
        var labels: [Int] = []
        for index in 0..<count {
            let label = index % 3
            var values = random.values(32, -0.3, 0.3)
            for x in 0..<4 { values[(label * 4 + x) * 2 + label % 2] += 2 }
            inputs.append(values)
            labels.append((label + labelShift) % 3)
        }
        return ArrayExamples(inputs: inputs, labels: labels)
    }

    static func network(seed: UInt64 = 1) throws -> TailNetwork {
        var random = TestRandom(9)
        let layers = [
            Layers.conv(
                &random, "pw", input: 0, output: [1, 4, 4, 6], inChannels: 2, kernel: 1, stride: 1, padding: .same,
                activation: .relu),
            TailLayer(
                operation: .averagePool2D(filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: .valid, activation: .none),
                inputs: [1], outputShape: [1, 2, 2, 6], name: "pool"),
            TailLayer(operation: .reshape(shape: [1, 24]), inputs: [2], outputShape: [1, 24], name: "reshape"),
        ]
        return try TailNetwork(layers: layers, inputShape: [1, 4, 4, 2], hiddenUnits: [8], classCount: 3, seed: seed)
    }

    static func settings(epochs: Int = 40) -> FineTuningSettings {
        var settings = FineTuningSettings(cut: .blocks(1))
        settings.epochs = epochs
        settings.batchSize = 8
        settings.learningRate = 0.02
        settings.baseLearningRateScale = 1
        settings.patience = nil
        settings.seed = 42
        return settings
    }

    static func accuracy(_ network: TailNetwork, _ examples: ArrayExamples) -> Double {
        let probabilities = network.probabilities(of: examples, batchSize: 5)
        let right = probabilities.enumerated().filter { index, p in p.firstIndex(of: p.max()!) == examples.labels[index] }
        return Double(right.count) / Double(examples.count)
    }

    @Test func learnsASeparableProblem() throws {
        let training = Self.separable(count: 30, seed: 1)
        var reported: [EpochRecord] = []
        let result = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: Self.settings()) {
            reported.append($0)
        }
        #expect(reported == result.epochs && result.epochs.count == 40 && result.bestEpoch == 40)
        #expect(result.epochs.last!.loss < 0.3 * result.epochs[0].loss, "losses \(result.epochs.map(\.loss))")
        #expect(Self.accuracy(result.network, training) == 1)
        #expect(Self.accuracy(result.network, Self.separable(count: 30, seed: 2)) == 1)
        #expect(result.network.layers.map(\.name) == ["pw", "pool", "reshape", "head/dense_0", "head/logits"])
        #expect(result.network.layers.last!.outputShape == [1, 3])
    }

    /// Keras's CosineDecay: the full rate at the first step, half way down at the middle, 0 at
    /// the end (and after it).
    @Test func cosineScheduleFactors() {
        let cosine = LearningRateSchedule.cosine
        #expect(cosine.factor(step: 0, of: 100) == 1)
        #expect(abs(cosine.factor(step: 50, of: 100) - 0.5) <= 1e-15)
        #expect(abs(cosine.factor(step: 25, of: 100) - (1 + 0.5.squareRoot()) / 2) <= 1e-15)
        #expect(abs(cosine.factor(step: 100, of: 100)) <= 1e-15 && abs(cosine.factor(step: 130, of: 100)) <= 1e-15)
        #expect(LearningRateSchedule.constant.factor(step: 99, of: 100) == 1)
    }

    /// The schedule reaches the optimizer: a cosine run learns the problem too, and ends elsewhere
    /// than the constant one.
    @Test func aCosineScheduleStillLearns() throws {
        let training = Self.separable(count: 30, seed: 1)
        var settings = Self.settings()
        settings.learningRateSchedule = .cosine
        let cosine = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: settings)
        let constant = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: Self.settings())
        #expect(Self.accuracy(cosine.network, Self.separable(count: 30, seed: 2)) == 1)
        #expect(cosine.network.parameters != constant.network.parameters)
        #expect(cosine.epochs.last!.loss < 0.3 * cosine.epochs[0].loss, "losses \(cosine.epochs.map(\.loss))")
    }

    @Test func theSameSeedRepeatsARunBitForBit() throws {
        let training = Self.separable(count: 20, seed: 3)
        var settings = Self.settings(epochs: 5)
        settings.dropout = 0.3
        settings.optimizer = .sgd
        let first = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: settings)
        let second = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: settings)
        #expect(first.network.parameters == second.network.parameters)
        #expect(first.epochs.map(\.loss) == second.epochs.map(\.loss))
        settings.seed += 1
        let other = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: settings)
        #expect(other.network.parameters != first.network.parameters)
    }

    @Test func earlyStoppingKeepsTheBestEpoch() throws {
        let training = Self.separable(count: 30, seed: 4)
        // The same inputs labelled otherwise: the better the training fit, the worse the validation loss.
        let validation = Self.separable(count: 30, seed: 4, labelShift: 1)
        var settings = Self.settings(epochs: 30)
        settings.patience = 2
        let result = try FineTuner.train(try Self.network(), training: training, validation: validation, settings: settings)
        #expect(result.stoppedEarly)
        #expect(result.epochs.count == result.bestEpoch + 2)
        let losses = result.epochs.map { $0.validationLoss! }
        #expect(losses[result.bestEpoch - 1] == losses.min()!)
        // The network given back is the best epoch's: its validation loss is that epoch's.
        let probabilities = result.network.probabilities(of: validation)
        let loss = zip(probabilities, validation.labels).map { -log(Double($0[$1])) }.reduce(0, +) / Double(validation.count)
        #expect(abs(loss - losses[result.bestEpoch - 1]) < 1e-4, "\(loss) against \(losses)")
    }

    @Test func balancedClassWeightsWeighTheLoss() throws {
        // 4 examples of class 0, 1 of class 1, 1 of class 2: weights 6/12, 6/3, 6/3.
        let examples = ArrayExamples(
            inputs: [[1, 0], [0.9, 0.1], [1, 0.2], [0.8, 0], [0, 1], [-1, -1]], labels: [0, 0, 0, 0, 1, 2])
        let network = try TailNetwork(layers: [], inputShape: [1, 2], hiddenUnits: [], classCount: 3, seed: 5)
        let probabilities = network.probabilities(of: examples)
        let crossEntropies = zip(probabilities, examples.labels).map { -log(Double($0[$1])) }
        let weights = [0.5, 0.5, 0.5, 0.5, 2, 2]
        let expected = zip(weights, crossEntropies).map(*).reduce(0, +) / 6
        var settings = FineTuningSettings(cut: .blocks(0))
        settings.epochs = 1
        settings.dropout = 0
        settings.classWeighting = .balanced
        // One batch: the epoch's loss is the loss at the initial weights.
        let weighted = try FineTuner.train(network, training: examples, validation: nil, settings: settings)
        #expect(abs(weighted.epochs[0].loss - expected) < 1e-6, "\(weighted.epochs[0].loss) against \(expected)")
        settings.classWeighting = .none
        let plain = try FineTuner.train(network, training: examples, validation: nil, settings: settings)
        #expect(abs(plain.epochs[0].loss - crossEntropies.reduce(0, +) / 6) < 1e-6)
    }

    @Test func aHugeLearningRateStopsWithNaN() throws {
        let training = Self.separable(count: 30, seed: 5)
        var settings = Self.settings(epochs: 15)
        settings.optimizer = .sgd
        settings.learningRate = 1e6
        #expect(throws: TasksError.invalidArgument(Self.nanMessage)) {
            _ = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: settings)
        }
    }

    /// Adam's steps are bounded by the learning rate, so a huge one blows the loss up without a
    /// NaN: the run stops after the epoch, saying so, instead of giving back a useless network.
    @Test func aDivergingRunStops() throws {
        let training = Self.separable(count: 30, seed: 5)
        var settings = Self.settings(epochs: 15)
        settings.learningRate = 1e6
        do {
            _ = try FineTuner.train(try Self.network(), training: training, validation: nil, settings: settings)
            Issue.record("a diverging run was accepted")
        } catch let error as TasksError {
            #expect(error.message.hasPrefix("The training diverged at epoch 1: its loss is "), "\(error.message)")
            #expect(
                error.message.hasSuffix(
                    "more than 20 times a uniform guess's (1.099) (learning rate 1000000.0): give a lower --learning-rate."),
                "\(error.message)")
        }
    }

    static let nanMessage =
        "The training loss became NaN at epoch 1, batch 3 (learning rate 1000000.0): give a lower --learning-rate."
}
