import GraphSurgery
import TFLiteMetadata
import TasksCommon
import Testing

@testable import FineTuning

/// Each refusal of `FineTuner.train` and `TailNetwork.init`, with its exact message.
struct RefusalTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let message: String
        let body: @Sendable () throws(TasksError) -> Void
        var testDescription: String { id }
    }

    static let examples = ArrayExamples(inputs: [[1, 0], [0, 1]], labels: [0, 1])

    static func train(
        _ examples: ArrayExamples = examples, validation: ArrayExamples? = nil,
        _ change: (inout FineTuningSettings) -> Void = { _ in }
    ) throws(TasksError) {
        var settings = FineTuningSettings(cut: .blocks(0))
        change(&settings)
        let network = try TailNetwork(layers: [], inputShape: [1, 2], hiddenUnits: [], classCount: 2, seed: 0)
        _ = try FineTuner.train(network, training: examples, validation: validation, settings: settings)
    }

    static func dense(_ weights: Int, shape: [Int], bias: Int, output: [Int] = [1, 3], inputs: [Int] = [0]) -> TailLayer {
        TailLayer(
            operation: .fullyConnected(
                weights: [Float](repeating: 0, count: weights), weightsShape: shape, bias: [Float](repeating: 0, count: bias),
                activation: .none),
            inputs: inputs, outputShape: output, name: "fc")
    }

    static func build(_ layers: [TailLayer], inputShape: [Int] = [1, 2]) throws(TasksError) {
        _ = try TailNetwork(layers: layers, inputShape: inputShape, hiddenUnits: [], classCount: 2, seed: 0)
    }

    static let cases: [Case] = [
        Case(id: "no examples", message: "The training set has no examples; fine-tuning needs at least one.") {
            () throws(TasksError) in
            try train(ArrayExamples(inputs: [], labels: []))
        },
        Case(id: "label", message: "The label 2 of training example 1 is outside 0..<2.") { () throws(TasksError) in
            try train(ArrayExamples(inputs: [[1, 0], [0, 1]], labels: [0, 2]))
        },
        Case(id: "validation label", message: "The label -1 of validation example 0 is outside 0..<2.") { () throws(TasksError) in
            try train(validation: ArrayExamples(inputs: [[1, 0]], labels: [-1]))
        },
        Case(
            id: "input count",
            message: "The training examples have 3 floats each, but the network's input [1, 2] takes 2."
        ) { () throws(TasksError) in
            try train(ArrayExamples(inputs: [[1, 0, 0]], labels: [0]))
        },
        Case(id: "batch size", message: "The batch size is 0; it must be at least 1.") { () throws(TasksError) in
            try train { $0.batchSize = 0 }
        },
        Case(id: "NaN learning rate", message: "The learning rate is nan; it must be a finite number above 0.") {
            () throws(TasksError) in
            try train { $0.learningRate = .nan }
        },
        Case(id: "negative learning rate", message: "The learning rate is -0.1; it must be a finite number above 0.") {
            () throws(TasksError) in
            try train { $0.learningRate = -0.1 }
        },
        Case(id: "dropout", message: "The dropout rate is 1.0; it must be in 0..<1.") { () throws(TasksError) in
            try train { $0.dropout = 1 }
        },
        Case(
            id: "patience",
            message: "The patience is 0 epochs; it must be at least 1 (or none, to train every epoch)."
        ) { () throws(TasksError) in
            try train { $0.patience = 0 }
        },
        Case(id: "weights count", message: "Layer 'fc': 5 weights values for the shape [3, 2] (6 needed).") {
            () throws(TasksError) in
            try build([dense(5, shape: [3, 2], bias: 3)])
        },
        Case(id: "weights input", message: "Layer 'fc': the weights [3, 4] take 4 values, the input [1, 2] has 2.") {
            () throws(TasksError) in
            try build([dense(12, shape: [3, 4], bias: 3)])
        },
        Case(id: "bias", message: "Layer 'fc': 2 bias values for 3 outputs.") { () throws(TasksError) in
            try build([dense(6, shape: [3, 2], bias: 2)])
        },
        Case(id: "output shape", message: "Layer 'fc': the output shape is [1, 4], but the input [1, 2] gives [1, 3].") {
            () throws(TasksError) in
            try build([dense(6, shape: [3, 2], bias: 3, output: [1, 4])])
        },
        Case(
            id: "input index",
            message: "Layer 'fc': it reads value 1, but only values 0...0 come before it (0 is the tail's input)."
        ) { () throws(TasksError) in
            try build([dense(6, shape: [3, 2], bias: 3, inputs: [1])])
        },
        Case(
            id: "depthwise filter",
            message:
                "Layer 'dw': the filter [1, 3, 3, 4] does not fit 3 input channels with depth multiplier 2 ([1, kh, kw, 6] needed)."
        ) { () throws(TasksError) in
            let layer = TailLayer(
                operation: .depthwiseConv2D(
                    filter: [Float](repeating: 0, count: 36), filterShape: [1, 3, 3, 4], bias: [0, 0, 0, 0], strideH: 1,
                    strideW: 1,
                    padding: .same, depthMultiplier: 2, activation: .none),
                inputs: [0], outputShape: [1, 5, 5, 4], name: "dw")
            try build([layer], inputShape: [1, 5, 5, 3])
        },
        Case(
            id: "add shapes",
            message: "Layer 'add': ADD of shapes [1, 2] and [1, 3] into [1, 2]; all three must be equal."
        ) { () throws(TasksError) in
            try build([
                dense(6, shape: [3, 2], bias: 3),
                TailLayer(operation: .add(activation: .none), inputs: [0, 1], outputShape: [1, 2], name: "add"),
            ])
        },
        Case(id: "VALID window", message: "Layer 'pool': a 3×3 window with strides 1×1 does not fit the input [1, 2, 2, 1].") {
            () throws(TasksError) in
            let layer = TailLayer(
                operation: .averagePool2D(filterH: 3, filterW: 3, strideH: 1, strideW: 1, padding: .valid, activation: .none),
                inputs: [0], outputShape: [1, 1, 1, 1], name: "pool")
            try build([layer], inputShape: [1, 2, 2, 1])
        },
    ]

    @Test(arguments: cases)
    func refuses(_ testCase: Case) {
        #expect(throws: TasksError.invalidArgument(testCase.message)) { try testCase.body() }
    }

    /// TFLite's SAME rule: ceil(in / stride) outputs, the padding split floor-first.
    @Test func windowGeometry() throws {
        let same = try #require(
            Window(height: 7, width: 6, kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2, padding: .same))
        #expect([same.outputHeight, same.outputWidth, same.padTop, same.padLeft] == [4, 3, 1, 0])
        let valid = try #require(
            Window(height: 7, width: 6, kernelHeight: 3, kernelWidth: 3, strideHeight: 2, strideWidth: 2, padding: .valid))
        #expect([valid.outputHeight, valid.outputWidth, valid.padTop, valid.padLeft] == [3, 2, 0, 0])
    }
}
