import Foundation
import GraphSurgery
import TFLiteMetadata
import Testing

@testable import FineTuning

/// One epoch of MobileNet v1's last block (depthwise 3×3, pointwise 1024→1024, average pool,
/// head 1024→10) on 3000 examples, batch 32: seconds per epoch and GFLOP/s, printed (opt in:
/// `FINE_TUNING_BENCHMARK=1 swift test -c release -Xswiftc -enable-testing --filter FineTuningBenchmark`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FINE_TUNING_BENCHMARK"] != nil, "opt in: FINE_TUNING_BENCHMARK=1"))
struct FineTuningBenchmark {
    /// 3000 examples drawn from 16 random [7, 7, 1024] tensors (so that they fit in memory).
    struct PooledExamples: TrainingExamples {
        let pool: [[Float]]
        var count: Int { 3000 }
        var inputCount: Int { 7 * 7 * 1024 }
        func label(of index: Int) -> Int { index % 10 }
        func fill(_ index: Int, epoch: Int, into buffer: UnsafeMutableBufferPointer<Float>) {
            _ = buffer.update(fromContentsOf: pool[index % pool.count])
        }
    }

    static func lastBlock() -> [TailLayer] {
        var random = TestRandom(3)
        let channels = 1024
        return [
            Layers.depthwise(
                &random, "dw", input: 0, output: [1, 7, 7, channels], kernel: 3, stride: 1, padding: .same, multiplier: 1,
                activation: .relu6),
            Layers.conv(
                &random, "pw", input: 1, output: [1, 7, 7, channels], inChannels: channels, kernel: 1, stride: 1,
                padding: .same, activation: .relu6),
            TailLayer(
                operation: .averagePool2D(filterH: 7, filterW: 7, strideH: 1, strideW: 1, padding: .valid, activation: .none),
                inputs: [2], outputShape: [1, 1, 1, channels], name: "pool"),
            TailLayer(operation: .reshape(shape: [1, channels]), inputs: [3], outputShape: [1, channels], name: "reshape"),
        ]
    }

    @Test func oneEpochOfMobileNetV1LastBlock() throws {
        var random = TestRandom(5)
        let examples = PooledExamples(pool: (0..<16).map { _ in random.values(7 * 7 * 1024, 0, 6) })
        let network = try TailNetwork(
            layers: Self.lastBlock(), inputShape: [1, 7, 7, 1024], hiddenUnits: [], classCount: 10, seed: 1)
        var settings = FineTuningSettings(cut: .blocks(1))
        settings.epochs = 1
        let result = try FineTuner.train(network, training: examples, validation: nil, settings: settings)
        let seconds = result.epochs[0].seconds
        // Forward products, and twice as much backward (dW and dX), at 2 FLOPs per multiply-add.
        let multiplyAdds = Engine(network: network, capacity: 1, dropout: 0).multiplyAddsPerExample
        let gigaflops = Double(multiplyAdds) * 3 * 2 * Double(examples.count) / seconds / 1e9
        print(
            "Fine-tuning benchmark: \(String(format: "%.2f", seconds)) s per epoch, \(String(format: "%.1f", gigaflops)) GFLOP/s")
        #expect(result.epochs[0].loss.isFinite)
    }
}
