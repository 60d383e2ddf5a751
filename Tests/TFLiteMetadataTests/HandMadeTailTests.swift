import Foundation
import GraphSurgery
import TasksCommon
import Testing

@testable import TFLiteMetadata

/// A hand-made graph for what the shared models lack: an INT8 filter with per-channel scales,
/// an INT32 bias with its own, and a MEAN without kept dimensions; read, written back and read
/// again from the written model.
struct HandMadeTailTests {
    typealias FB = FlatBufferValue

    static func int32Bytes(_ values: [Int32]) -> FB {
        .table([Schema.Buffer.data: .alignedBytes(values.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) })])
    }

    static func tensor(_ name: String, _ shape: [Int32], type: UInt8, buffer: UInt32 = 0, scales: [Float] = []) -> FB {
        var fields: [Int: FB] = [
            Schema.Tensor.shape: .int32s(shape), Schema.Tensor.type: .uint8(type), Schema.Tensor.buffer: .uint32(buffer),
            Schema.Tensor.name: .string(name),
        ]
        if !scales.isEmpty {
            fields[Schema.Tensor.quantization] = .table([
                Schema.QuantizationParameters.scale: .floats(scales),
                Schema.QuantizationParameters.zeroPoint: .int64s(scales.map { _ in 0 }),
                Schema.QuantizationParameters.quantizedDimension: .uint32(0),
            ])
        }
        return .table(fields)
    }

    static func op(_ code: UInt32, _ inputs: [Int32], _ outputs: [Int32], options: (UInt8, FB)? = nil) -> FB {
        var fields: [Int: FB] = [
            Schema.Operator.opcodeIndex: .uint32(code), Schema.Operator.inputs: .int32s(inputs),
            Schema.Operator.outputs: .int32s(outputs),
        ]
        if let options {
            fields[Schema.Operator.builtinOptionsType] = .uint8(options.0)
            fields[Schema.Operator.builtinOptions] = options.1
        }
        return .table(fields)
    }

    /// input [1,2,2,2] → RESHAPE (tensor 2) → CONV_2D 1×1, INT8 filter scales [0.5, 0.25],
    /// INT32 bias scales [0.05, 0.025], VALID, RELU (tensor 5) → MEAN over [1, 2] (tensor 7, [1, 2]).
    static let model: Data = {
        let codes = [Schema.BuiltinOperator.reshape, Schema.BuiltinOperator.conv2D, Schema.BuiltinOperator.mean].map { code in
            FB.table([Schema.OperatorCode.deprecatedBuiltinCode: .uint8(UInt8(code)), Schema.OperatorCode.version: .uint32(1)])
        }
        let filter = FB.table([Schema.Buffer.data: .alignedBytes([2, 252, 6, 8])])  // int8 [2, -4, 6, 8]
        let buffers: [FB] = [.table([:]), int32Bytes([1, 2, 2, 2]), filter, int32Bytes([10, -20]), int32Bytes([1, 2])]
        let float = Schema.TensorType.float32, int32 = Schema.TensorType.int32
        let tensors = [
            tensor("input", [1, 2, 2, 2], type: float), tensor("shape", [4], type: int32, buffer: 1),
            tensor("reshaped", [1, 2, 2, 2], type: float),
            tensor("filter", [2, 1, 1, 2], type: Schema.TensorType.int8, buffer: 2, scales: [0.5, 0.25]),
            tensor("bias", [2], type: int32, buffer: 3, scales: [0.05, 0.025]), tensor("conv", [1, 2, 2, 2], type: float),
            tensor("axes", [2], type: int32, buffer: 4), tensor("mean", [1, 2], type: float),
        ]
        let convOptions = FB.table([
            Schema.Conv2DOptions.padding: .uint8(1), Schema.Conv2DOptions.strideW: .uint32(1),
            Schema.Conv2DOptions.strideH: .uint32(1), Schema.Conv2DOptions.fusedActivationFunction: .uint8(1),
        ])
        let operators = [
            op(0, [0, 1], [2]), op(1, [2, 3, 4], [5], options: (Schema.BuiltinOptions.conv2DOptions, convOptions)),
            op(2, [5, 6], [7], options: (Schema.BuiltinOptions.reducerOptions, .table([:]))),
        ]
        let subgraph = FB.table([
            Schema.SubGraph.tensors: .tables(tensors), Schema.SubGraph.inputs: .int32s([0]),
            Schema.SubGraph.outputs: .int32s([7]), Schema.SubGraph.operators: .tables(operators),
        ])
        let root = FB.table([
            Schema.Model.version: .uint32(3), Schema.Model.operatorCodes: .tables(codes),
            Schema.Model.subgraphs: .tables([subgraph]), Schema.Model.buffers: .tables(buffers),
        ])
        return Data(FB.buffer(root: root, identifier: "TFL3"))
    }()

    static let expected = [
        TailLayer(
            operation: .conv2D(
                filter: [1, -2, 1.5, 2], filterShape: [2, 1, 1, 2], bias: [0.5, -0.5], strideH: 1, strideW: 1, padding: .valid,
                activation: .relu),
            inputs: [0], outputShape: [1, 2, 2, 2], name: "conv"),
        TailLayer(operation: .meanOverSpace, inputs: [1], outputShape: [1, 1, 1, 2], name: "mean"),
        TailLayer(operation: .reshape(shape: [1, 2]), inputs: [2], outputShape: [1, 2], name: "mean"),
    ]

    @Test func perChannelWeightsAndMeanAreRead() throws {
        #expect(try ModelTail.blockStarts(of: Self.model, feature: 7) == [2])
        let tail = try ModelTail.reading(Self.model, from: 2, to: 7)
        #expect(tail.layers == Self.expected)
        #expect(tail.cutQuantization == nil && tail.cutShape == [1, 2, 2, 2])
    }

    /// What `replacingTail` writes reads back as the same layers (options, weights, shapes).
    @Test func writtenLayersReadBack() throws {
        let logits = TailLayer(
            operation: .fullyConnected(weights: [1, 2, 3, 4, 5, 6], weightsShape: [3, 2], bias: [0, 1, 2], activation: .none),
            inputs: [3], outputShape: [1, 3], name: "logits")
        let written = try ClassifierHeadAppender.replacingTail(of: Self.model, at: 2, with: Self.expected + [logits])
        let end = try ClassifierHeadAppender.tensor(named: "tail/3/logits", in: written).index
        let again = try ModelTail.reading(written, from: 2, to: end)
        #expect(again.layers.map(\.operation) == (Self.expected + [logits]).map(\.operation))
        #expect(again.layers.map(\.inputs) == [[0], [1], [2], [3]])
        #expect(again.layers.map(\.outputShape) == [[1, 2, 2, 2], [1, 1, 1, 2], [1, 2], [1, 3]])
        let output = try ModelTensor.tensors(inModel: written).outputs
        #expect(output.map(\.name) == ["probabilities"] && output.map(\.shape) == [[1, 3]])
    }
}
