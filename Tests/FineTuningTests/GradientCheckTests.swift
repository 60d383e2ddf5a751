import GraphSurgery
import TFLiteMetadata
import TasksCommon
import Testing

@testable import FineTuning

/// The analytic gradients of the loss (every weight, bias and the input) against central differences.
struct GradientCheckTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var inputShape = [1, 5, 5, 3]
        var inputScale: Float = 1
        var hiddenUnits: [Int] = []
        let layers: @Sendable (inout TestRandom) -> [TailLayer]
        var testDescription: String { name }
    }

    /// Pools what a case's layers give to [1, C] for the head.
    static func meanAndReshape(_ value: Int, channels: Int) -> [TailLayer] {
        [
            TailLayer(operation: .meanOverSpace, inputs: [value], outputShape: [1, 1, 1, channels], name: "mean"),
            TailLayer(
                operation: .reshape(shape: [1, channels]), inputs: [value + 1], outputShape: [1, channels], name: "reshape"),
        ]
    }

    static let cases: [Case] = [
        Case(name: "conv 3x3 stride 1 SAME relu") { r in
            [
                Layers.conv(
                    &r, "c", input: 0, output: [1, 5, 5, 4], inChannels: 3, kernel: 3, stride: 1, padding: .same,
                    activation: .relu)
            ]
                + meanAndReshape(1, channels: 4)
        },
        Case(name: "conv 3x3 stride 2 SAME none") { r in
            [
                Layers.conv(
                    &r, "c", input: 0, output: [1, 3, 3, 4], inChannels: 3, kernel: 3, stride: 2, padding: .same,
                    activation: .none)
            ]
                + meanAndReshape(1, channels: 4)
        },
        Case(name: "conv 3x3 stride 2 VALID relu6", inputScale: 8) { r in
            [
                Layers.conv(
                    &r, "c", input: 0, output: [1, 2, 2, 4], inChannels: 3, kernel: 3, stride: 2, padding: .valid,
                    activation: .relu6)
            ]
                + meanAndReshape(1, channels: 4)
        },
        Case(name: "conv 1x1 relu6", inputScale: 12) { r in
            [
                Layers.conv(
                    &r, "c", input: 0, output: [1, 5, 5, 4], inChannels: 3, kernel: 1, stride: 1, padding: .same,
                    activation: .relu6)
            ]
                + meanAndReshape(1, channels: 4)
        },
        Case(name: "conv 1x1 stride 2 VALID") { r in
            [
                Layers.conv(
                    &r, "c", input: 0, output: [1, 3, 3, 2], inChannels: 3, kernel: 1, stride: 2, padding: .valid,
                    activation: .none)
            ]
                + meanAndReshape(1, channels: 2)
        },
        Case(name: "depthwise 3x3 stride 1 SAME multiplier 2 relu6", inputScale: 10) { r in
            [
                Layers.depthwise(
                    &r, "d", input: 0, output: [1, 5, 5, 6], kernel: 3, stride: 1, padding: .same, multiplier: 2,
                    activation: .relu6)
            ]
                + meanAndReshape(1, channels: 6)
        },
        Case(name: "depthwise 3x3 stride 2 VALID relu") { r in
            [
                Layers.depthwise(
                    &r, "d", input: 0, output: [1, 2, 2, 3], kernel: 3, stride: 2, padding: .valid, multiplier: 1,
                    activation: .relu)
            ]
                + meanAndReshape(1, channels: 3)
        },
        Case(name: "depthwise 3x3 stride 2 SAME") { r in
            [
                Layers.depthwise(
                    &r, "d", input: 0, output: [1, 3, 3, 3], kernel: 3, stride: 2, padding: .same, multiplier: 1,
                    activation: .none)
            ]
                + meanAndReshape(1, channels: 3)
        },
        Case(name: "add residual relu") { r in
            [
                Layers.conv(
                    &r, "c", input: 0, output: [1, 5, 5, 3], inChannels: 3, kernel: 1, stride: 1, padding: .same,
                    activation: .none),
                TailLayer(operation: .add(activation: .relu), inputs: [0, 1], outputShape: [1, 5, 5, 3], name: "add"),
            ] + meanAndReshape(2, channels: 3)
        },
        Case(name: "average pool 3x3 stride 2 SAME partial windows relu") { r in
            [
                Layers.conv(
                    &r, "c", input: 0, output: [1, 5, 5, 2], inChannels: 3, kernel: 1, stride: 1, padding: .same,
                    activation: .none),
                TailLayer(
                    operation: .averagePool2D(filterH: 3, filterW: 3, strideH: 2, strideW: 2, padding: .same, activation: .relu),
                    inputs: [1], outputShape: [1, 3, 3, 2], name: "pool"),
                TailLayer(operation: .reshape(shape: [1, 18]), inputs: [2], outputShape: [1, 18], name: "reshape"),
            ]
        },
        Case(name: "average pool 2x2 VALID, fully connected relu, hidden head", hiddenUnits: [4]) { r in
            [
                TailLayer(
                    operation: .averagePool2D(filterH: 2, filterW: 2, strideH: 1, strideW: 1, padding: .valid, activation: .none),
                    inputs: [0], outputShape: [1, 4, 4, 3], name: "pool"),
                Layers.dense(&r, "fc", input: 1, inputs: 48, outputs: 5, activation: .relu),
            ]
        },
        Case(name: "head alone on [1, N]", inputShape: [1, 6], hiddenUnits: [5, 4]) { _ in [] },
    ]

    @Test(arguments: cases)
    func gradientsMatchCentralDifferences(_ testCase: Case) throws {
        var random = TestRandom(7)
        let network = try TailNetwork(
            layers: testCase.layers(&random), inputShape: testCase.inputShape, hiddenUnits: testCase.hiddenUnits, classCount: 3,
            seed: 11)
        let examples = 2
        let input = random.values(examples * network.inputCount).map { $0 * testCase.inputScale }
        let checker = GradientChecker(network: network, input: input, labels: [0, 2])
        let analytic = checker.analyticGradients()
        for parameter in network.parameters.indices {
            let result = checker.errors(analytic.weights[parameter], of: checker.engine.weights[parameter])
            Self.expect(result, count: analytic.weights[parameter].count, "\(testCase.name): parameter \(parameter)")
        }
        let result = checker.errors(analytic.input, of: checker.engine.values[0])
        Self.expect(result, count: analytic.input.count, "\(testCase.name): input")
    }

    /// Float rounding in the forward pass bounds the numeric derivative's precision near 1e-3 of
    /// the largest gradient (worse with the small steps next to a kink); a wrong index, window
    /// or factor gives errors of order 1.
    static func expect(_ result: (scaled: Double, elementwise: Double, skipped: Int), count: Int, _ name: String) {
        #expect(result.scaled < 3e-3, "\(name): error \(result.scaled) of the largest gradient")
        #expect(result.elementwise < 3e-2, "\(name): relative error \(result.elementwise)")
        #expect(result.skipped * 2 <= count, "\(name): \(result.skipped) of \(count) values at a kink")
    }
}

/// Runs one network's loss (label smoothing 0.1, no dropout) on a fixed batch, analytically and
/// with perturbed values.
struct GradientChecker {
    let engine: Engine
    let input: [Float]
    let labels: [Int]
    let loss: SoftmaxCrossEntropy

    init(network: TailNetwork, input: [Float], labels: [Int]) {
        engine = Engine(network: network, capacity: labels.count, dropout: 0)
        self.input = input
        self.labels = labels
        loss = SoftmaxCrossEntropy(classes: network.classCount, smoothing: 0.1)
        engine.values[0].load(input)
    }

    /// The mean loss of the batch as the engine's values stand.
    func currentLoss(gradient: Bool = false) -> Double {
        var noDropout: SplitMix64?
        engine.forward(count: labels.count, random: &noDropout)
        let result = loss.evaluate(
            engine.logits, rows: labels.count, labels: labels, weights: nil, divisor: labels.count,
            probabilities: engine.probabilities.pointer, gradient: gradient ? engine.logitsGradient : nil)
        return result.loss / Double(labels.count)
    }

    /// dLoss/d(each parameter) and dLoss/d(input).
    func analyticGradients() -> (weights: [[Float]], input: [Float]) {
        _ = currentLoss(gradient: true)
        engine.backward(count: labels.count, inputGradient: true)
        return (engine.weightGradients.map(\.array), engine.gradients[0].array)
    }

    /// The errors of `analytic` against numeric derivatives over `buffer`'s values: the largest
    /// |analytic − numeric| relative to the tensor's largest gradient (`scaled`), the largest
    /// relative to each value itself with a floor of a tenth of that (`elementwise`, which
    /// also catches an error confined to small entries), and how many values were skipped
    /// because a perturbation moved an activation across its kink (no derivative there).
    func errors(_ analytic: [Float], of buffer: FloatBuffer) -> (scaled: Double, elementwise: Double, skipped: Int) {
        let largest = max(analytic.map { Double(abs($0)) }.max()!, 1e-4)
        var scaled = 0.0
        var elementwise = 0.0
        var skipped = 0
        _ = currentLoss()
        let pattern = clampPattern()
        for i in 0..<buffer.count {
            guard let numeric = centralDifference(buffer, i, pattern: pattern) else {
                skipped += 1
                continue
            }
            let exact = Double(analytic[i])
            scaled = max(scaled, abs(exact - numeric) / largest)
            elementwise = max(elementwise, abs(exact - numeric) / max(abs(exact), abs(numeric), 0.1 * largest))
        }
        return (scaled, elementwise, skipped)
    }

    /// The derivative along value `i` of `buffer` (restored afterwards) by Richardson's
    /// extrapolation of central differences, (4 D(h/2) − D(h)) / 3: its error is O(h⁴), so h
    /// can be large enough for Float rounding not to matter. When a perturbed point clamps
    /// other activations than `pattern`, smaller steps are tried; nil when all of them do.
    private func centralDifference(_ buffer: FloatBuffer, _ i: Int, pattern: [Bool]) -> Double? {
        let original = buffer.pointer[i]
        defer { buffer.pointer[i] = original }
        for scale in [Float(2e-2), 5e-3, 1e-3] {
            let step = max(scale * abs(original), scale)
            var losses: [Double] = []
            for offset in [step, -step, step / 2, -step / 2] {
                buffer.pointer[i] = original + offset
                losses.append(currentLoss())
                guard clampPattern() == pattern else { break }
            }
            guard losses.count == 4 else { continue }
            let wide = (losses[0] - losses[1]) / Double(2 * step)
            let narrow = (losses[2] - losses[3]) / Double(step)
            return (4 * narrow - wide) / 3
        }
        return nil
    }

    /// Which outputs of RELU and RELU6 stages are clamped (at 0 or 6), after the last forward pass.
    private func clampPattern() -> [Bool] {
        var pattern: [Bool] = []
        for (index, stage) in engine.stages.enumerated() where stage.activation != .none {
            let output = engine.values[index + 1]
            for i in 0..<(labels.count * stage.outputCount) {
                pattern.append(output.pointer[i] <= 0 || (stage.activation == .relu6 && output.pointer[i] >= 6))
            }
        }
        return pattern
    }
}
