import Foundation
import GraphSurgery
import TFLiteMetadata
import Testing

@testable import FineTuning

/// The engine against scripts/fine-tuning-reference.py's independent NumPy computation
/// (Fixtures/reference.json): the loss, every gradient, and the weights after 3 Adam and 3 SGD steps.
struct ReferenceTests {
    struct Fixture: Decodable {
        let inputShape: [Int]
        let inputs: [[Float]]
        let labels: [Int]
        let classCount: Int
        let labelSmoothing: Double
        let weightDecay: Double
        let learningRate: Double
        let baseLearningRateScale: Double
        let parameters: [[Float]]
        let loss: Double
        let gradients: [[Float]]
        let afterAdam: [[Float]]
        let afterSGD: [[Float]]
    }

    static func load() throws -> Fixture {
        let url = try #require(Bundle.module.url(forResource: "reference", withExtension: "json", subdirectory: "Fixtures"))
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    /// The fixture's network: depthwise 3×3 SAME RELU6, conv 1×1 3→4 RELU6, average pool, reshape, logits.
    static func network(_ fixture: Fixture) throws -> TailNetwork {
        let p = fixture.parameters
        let layers = [
            TailLayer(
                operation: .depthwiseConv2D(
                    filter: p[0], filterShape: [1, 3, 3, 3], bias: p[1], strideH: 1, strideW: 1, padding: .same,
                    depthMultiplier: 1,
                    activation: .relu6),
                inputs: [0], outputShape: [1, 4, 4, 3], name: "dw"),
            TailLayer(
                operation: .conv2D(
                    filter: p[2], filterShape: [4, 1, 1, 3], bias: p[3], strideH: 1, strideW: 1, padding: .same,
                    activation: .relu6),
                inputs: [1], outputShape: [1, 4, 4, 4], name: "pw"),
            TailLayer(
                operation: .averagePool2D(filterH: 4, filterW: 4, strideH: 1, strideW: 1, padding: .valid, activation: .none),
                inputs: [2], outputShape: [1, 1, 1, 4], name: "pool"),
            TailLayer(operation: .reshape(shape: [1, 4]), inputs: [3], outputShape: [1, 4], name: "reshape"),
        ]
        var network = try TailNetwork(
            layers: layers, inputShape: fixture.inputShape, hiddenUnits: [], classCount: fixture.classCount, seed: 0)
        network.parameters[4] = p[4]
        network.parameters[5] = p[5]
        return network
    }

    static func settings(_ fixture: Fixture, _ optimizer: FineTuningOptimizer) -> FineTuningSettings {
        var settings = FineTuningSettings(cut: .blocks(1))
        settings.epochs = 3
        settings.batchSize = fixture.labels.count
        settings.learningRate = fixture.learningRate
        settings.baseLearningRateScale = fixture.baseLearningRateScale
        settings.optimizer = optimizer
        settings.dropout = 0
        settings.weightDecay = fixture.weightDecay
        settings.patience = nil
        settings.classWeighting = .balanced
        settings.labelSmoothing = fixture.labelSmoothing
        return settings
    }

    static func expectClose(_ actual: [[Float]], _ expected: [[Float]], tolerance: Float, _ what: String) {
        for (index, (a, e)) in zip(actual, expected).enumerated() {
            let worst = zip(a, e).map { abs($0 - $1) }.max() ?? 0
            #expect(a.count == e.count && worst <= tolerance, "\(what) \(index): largest difference \(worst)")
        }
    }

    @Test func lossAndGradientsMatch() throws {
        let fixture = try Self.load()
        let examples = ArrayExamples(inputs: fixture.inputs, labels: fixture.labels)
        let session = TrainingSession(
            network: try Self.network(fixture), training: examples, settings: Self.settings(fixture, .adam))
        let result = session.computeGradients(examples, indices: ArraySlice(0..<examples.count), epoch: 1)
        #expect(abs(result.loss - fixture.loss) < 1e-5, "loss \(result.loss), expected \(fixture.loss)")
        Self.expectClose(session.engine.weightGradients.map(\.array), fixture.gradients, tolerance: 2e-6, "gradient")
    }

    @Test(arguments: [FineTuningOptimizer.adam, .sgd])
    func threeStepsMatch(_ optimizer: FineTuningOptimizer) throws {
        let fixture = try Self.load()
        let examples = ArrayExamples(inputs: fixture.inputs, labels: fixture.labels)
        let result = try FineTuner.train(
            try Self.network(fixture), training: examples, validation: nil, settings: Self.settings(fixture, optimizer))
        #expect(result.epochs.count == 3 && result.bestEpoch == 3 && !result.stoppedEarly)
        let expected = optimizer == .adam ? fixture.afterAdam : fixture.afterSGD
        Self.expectClose(result.network.parameters, expected, tolerance: 2e-6, "\(optimizer) parameter")
        // The trained weights are also what `layers` gives back.
        if case .fullyConnected(let weights, _, _, _) = result.network.layers[4].operation {
            #expect(weights == result.network.parameters[4])
        } else {
            Issue.record("layer 4 is not the logits layer")
        }
    }
}
