import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import LiteRT

@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LiteRTTests {
    let environment: Environment

    init() throws { environment = try Environment() }

    func load(_ name: String) throws -> Model {
        try Model(bytes: try TestData.bytes("models/\(name)"), environment: environment)
    }

    @Test func describesQuantizedModelTensors() throws {
        let model = try load("mobilenet_v1_0.25_224_quant.tflite")
        #expect(model.inputs.count == 1)
        #expect(model.outputs.count == 1)
        #expect(model.inputs[0].elementType == .uint8)
        #expect(model.inputs[0].shape == [1, 224, 224, 3])
        #expect(model.inputs[0].quantization == Quantization(scale: 1.0 / 128, zeroPoint: 128))
        #expect(model.outputs[0].elementType == .uint8)
        #expect(model.outputs[0].shape == [1, 1001])
        #expect(model.outputs[0].quantization == Quantization(scale: 1.0 / 256, zeroPoint: 0))
    }

    @Test func describesFloatModelTensors() throws {
        let model = try load("mobilenet_v1_0.25_224_1_metadata_1.tflite")
        #expect(model.inputs[0].elementType == .float32)
        #expect(model.inputs[0].shape == [1, 224, 224, 3])
        #expect(model.inputs[0].quantization == nil)
        #expect(model.outputs[0].shape == [1, 1001])
    }

    /// A mid-grey image through the quantized model: 1001 scores, not all zero, identical for
    /// 1 and 2 threads and across runs.
    @Test func runsAndIsDeterministicAcrossThreadCounts() throws {
        let model = try load("mobilenet_v1_0.25_224_quant.tflite")
        let one = try CompiledModel(model: model, threadCount: 1)
        let two = try CompiledModel(model: model, threadCount: 2)
        let first = try runGrey(one)
        #expect(try runGrey(one) == first)
        #expect(try runGrey(two) == first)
        #expect(first.count == 1001)
        #expect(first.contains { $0 > 0 })
    }

    func runGrey(_ compiled: CompiledModel) throws -> [UInt8] {
        try compiled.inputBuffers[0].withBytes(forWriting: true) { bytes in
            #expect(bytes.count == 224 * 224 * 3)
            bytes.initializeMemory(as: UInt8.self, repeating: 128)
        }
        try compiled.run()
        return try compiled.outputBuffers[0].withBytes(forWriting: false) { Array($0.bindMemory(to: UInt8.self)) }
    }

    @Test(arguments: [0, 8, 1000, 100_000])
    func truncatedModelIsRejected(length: Int) throws {
        let bytes = try TestData.bytes("models/mobilenet_v1_0.25_224_quant.tflite").prefix(length)
        #expect(throws: TasksError.self) { try Model(bytes: Data(bytes), environment: environment) }
    }

    @Test func garbageIsRejected() throws {
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let error = #expect(throws: TasksError.self) { try Model(bytes: garbage, environment: environment) }
        #expect(error?.code == .invalidArgumentError)
    }

    @Test func zeroThreadsIsRejected() throws {
        let model = try load("mobilenet_v1_0.25_224_quant.tflite")
        let error = #expect(throws: TasksError.self) { try CompiledModel(model: model, threadCount: 0) }
        #expect(error?.message == "Invalid thread count: 0; it must be between 1 and 64.")
    }

    /// Creating and destroying models, compiled models and buffers many times must not grow
    /// memory. Measured in a process of its own, where no other test allocates.
    @Test func createDestroyCyclesDoNotLeak() async throws {
        let bytes = try TestData.bytes("models/mobilenet_v1_0.25_224_quant.tflite")
        let growth = try await ResidentMemory.measuredAlone(filter: "LiteRTTests.LiteRTTests/createDestroyCyclesDoNotLeak") {
            // 20 warm-up cycles (allocator pools and XNNPACK caches settle), then 2 x 100.
            try ResidentMemory.measure(warmUp: 20, rounds: 100) {
                let model = try Model(bytes: bytes, environment: environment)
                let compiled = try CompiledModel(model: model, threadCount: 1)
                _ = try runGrey(compiled)
            }
        }
        // 200 cycles each allocate ~1 MB of model and buffers: a leak would add ~200 MB.
        #expect(growth.total < 20 << 20, "resident memory grew by \(growth.total >> 20) MiB over 200 cycles: \(growth)")
    }
}
