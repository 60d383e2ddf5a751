import Foundation
import GraphSurgery
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// Reading a base's tail for fine-tuning (`ModelTail`): its blocks and its layers, weights
/// dequantized. Tensor indexes and quantized values were read with the `tflite` Python
/// package (2.18 schema) and numpy.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelTailTests {
    static let v1 = "mobilenet_v1_1.0_224_quant_embedding_extractor.tflite"
    /// The uint8 MobileNet V2 classifier whose tensors are numbered in execution order
    /// (mobilenet_v2_1.0_224_quant.tflite holds the same graph with other tensor numbers).
    static let v2 = "mobilenet_v2_1.0_224_quant_labels.tflite"

    static func model(_ name: String) throws -> (bytes: Data, feature: Int) {
        let bytes = try Data(contentsOf: TestData.model(name))
        return (bytes, try ClassifierHeadAppender.featureTensor(of: bytes).index)
    }

    @Test func blockStartsOfMobileNetV1() throws {
        let (bytes, feature) = try Self.model(Self.v1)
        #expect(feature == 82)
        let starts = try ModelTail.blockStarts(of: bytes, feature: feature)
        // Conv2d_12_pointwise's output (77), Conv2d_11's (73), ... down to Conv2d_1_pointwise's
        // (29): the first block (Conv2d_0 with Conv2d_1) reads the input.
        #expect(starts == stride(from: 77, through: 29, by: -4).map { $0 }, "\(starts)")
    }

    @Test func blockStartsOfMobileNetV2() throws {
        let (bytes, feature) = try Self.model(Self.v2)
        #expect(feature == 169)
        let starts = try ModelTail.blockStarts(of: bytes, feature: feature)
        // Before Conv_1 (166), before expanded_conv_16 (160, the ADD of 15), before 15 (153).
        #expect(Array(starts.prefix(3)) == [166, 160, 153], "\(starts)")
        #expect(try ModelTail.cut(forBlocks: 2, of: bytes, feature: feature) == 160)
    }

    /// MobileNet v1 0.25 fuses no activation: its RELU6 is its outputs' quantization range [0, 6],
    /// which the float layers must apply (else they compute another model).
    @Test func aClampLeftToQuantizationIsRead() throws {
        let (bytes, feature) = try Self.model("mobilenet_v1_0.25_224_quant.tflite")
        let cut = try ModelTail.cut(forBlocks: 1, of: bytes, feature: feature)
        let tail = try ModelTail.reading(bytes, from: cut, to: feature)
        guard case .depthwiseConv2D(_, _, _, _, _, _, _, .relu6) = tail.layers[0].operation,
            case .conv2D(_, _, _, _, _, _, .relu6) = tail.layers[1].operation,
            case .averagePool2D(_, _, _, _, _, .none) = tail.layers[2].operation
        else {
            Issue.record("unexpected activations: \(tail.layers.map { "\($0.operation)".suffix(40) })")
            return
        }
    }

    @Test func lastBlockOfMobileNetV1() throws {
        let (bytes, feature) = try Self.model(Self.v1)
        let tail = try ModelTail.reading(bytes, from: 77, to: feature)
        #expect(tail.cut == 77 && tail.feature == 82 && tail.cutShape == [1, 7, 7, 1024])
        #expect(tail.cutQuantization == TensorQuantization(scale: 0.023528477, zeroPoint: 0))
        try #require(tail.layers.count == 3)
        guard
            case .depthwiseConv2D(let filter, let filterShape, let bias, 1, 1, .same, 1, .relu6) = tail.layers[0].operation,
            case .conv2D(let pointwise, [1024, 1, 1, 1024], let pointwiseBias, 1, 1, .same, .relu6) = tail.layers[1].operation,
            case .averagePool2D(7, 7, _, _, .valid, .none) = tail.layers[2].operation
        else {
            Issue.record("unexpected layers: \(tail.layers.map(\.operation).map { "\($0)".prefix(60) })")
            return
        }
        #expect(filterShape == [1, 3, 3, 1024] && filter.count == 9216 && bias.count == 1024 && pointwiseBias.count == 1024)
        #expect(tail.layers.map(\.inputs) == [[0], [1], [2]])
        #expect(tail.layers.map(\.outputShape) == [[1, 7, 7, 1024], [1, 7, 7, 1024], [1, 1, 1, 1024]])
        #expect(tail.layers[2].name == "MobilenetV1/Logits/AvgPool_1a/AvgPool")
        // scale × (q − zero point): filter scale 0.12616928, zero point 211; biases INT32, zero point 0.
        Self.expectValues(filter, [0: 1.1355236, 1: 1.5140314, 1000: 0.5046771, 9215: -0.37850785])
        Self.expectValues(bias, [0: 0.0059371418, 1: 0.023748567, 1000: -0.18701997, 1023: 2.1640882])
        Self.expectValues(pointwise, [0: 0.28877044, 1: -0.16243337, 1000: -0.3790112, 1_048_575: 0.054144457])
        Self.expectValues(pointwiseBias, [0: 1.0739285, 1: 6.26522, 1000: 1.3223462, 1023: 0.9129879])
    }

    static func expectValues(_ values: [Float], _ expected: [Int: Float], sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, value) in expected {
            #expect(abs(values[index] - value) <= 1e-6 * max(1, abs(value)), "[\(index)]", sourceLocation: sourceLocation)
        }
    }

    @Test func residualBlockOfMobileNetV2() throws {
        let (bytes, feature) = try Self.model(Self.v2)
        let tail = try ModelTail.reading(bytes, from: 160, to: feature)
        let kinds = tail.layers.map { layer in "\(layer.operation)".prefix { $0 != "(" } }
        #expect(kinds == ["conv2D", "depthwiseConv2D", "conv2D", "conv2D", "averagePool2D"], "\(kinds)")
        let residual = try ModelTail.reading(bytes, from: 153, to: feature)
        // expanded_conv_15: expand, depthwise, project, then the ADD of the project and the cut.
        #expect(residual.layers[3].operation == .add(activation: .none))
        #expect(residual.layers[3].inputs == [3, 0])
        #expect(residual.layers.count == 9 && residual.layers[4].inputs == [4])
        if case .depthwiseConv2D(_, let shape, _, _, _, _, let multiplier, _) = residual.layers[1].operation {
            #expect(shape == [1, 3, 3, 960] && multiplier == 1)
        } else {
            Issue.record("layer 1 is \(residual.layers[1].operation)")
        }
    }

    @Test func tooManyBlocksAreRefused() throws {
        let (bytes, feature) = try Self.model(Self.v1)
        #expect(throws: TasksError.invalidArgument("The base has 13 blocks before its features; --fine-tune 14 asks for more.")) {
            try ModelTail.cut(forBlocks: 14, of: bytes, feature: feature)
        }
        #expect(try ModelTail.cut(forBlocks: 13, of: bytes, feature: feature) == 29)
        #expect(try ModelTail.cut(forBlocks: 1, of: bytes, feature: feature) == 77)
    }

    @Test func aCutInsideABlockIsRefused() throws {
        let (bytes, feature) = try Self.model(Self.v2)
        // 159 is expanded_conv_15's projection: the ADD after it also reads 153.
        let message =
            "The cut tensor 159 ('MobilenetV2/expanded_conv_15/project/add_fold;MobilenetV2/expanded_conv_15/project/Conv2D_Fold;"
            + "MobilenetV2/expanded_conv_15/project/BatchNorm_Fold/bias1') is not a block boundary: operator 57 (ADD, writing "
            + "tensor 160 ('MobilenetV2/expanded_conv_15/add')) reads tensor 153 ('MobilenetV2/expanded_conv_14/add'), "
            + "computed before it; a tail starts where its input is the only tensor later operators read."
        #expect(throws: TasksError.invalidArgument(message)) { try ModelTail.reading(bytes, from: 159, to: feature) }
    }

    @Test func anUnsupportedOperatorIsNamed() throws {
        let (bytes, _) = try Self.model(Self.v2)
        // Toward the softmax output (173): the tail then holds RESHAPE and SOFTMAX.
        let message =
            "Training does not support SOFTMAX (operator 65, writing tensor 173 ('MobilenetV2/Predictions/Softmax')); "
            + "no --fine-tune leaves it in the frozen trunk (it is in the last block)."
        #expect(throws: TasksError.invalidArgument(message)) { try ModelTail.reading(bytes, from: 166, to: 173) }
        #expect(throws: TasksError.invalidArgument(message)) { try ModelTail.cut(forBlocks: 1, of: bytes, feature: 173) }
    }

    @Test func badTensorsAreRefused() throws {
        let (bytes, feature) = try Self.model(Self.v1)
        #expect(throws: TasksError.invalidArgument("The cut tensor 500 does not exist: the base model has 83 tensors.")) {
            try ModelTail.reading(bytes, from: 500, to: feature)
        }
        #expect {
            try ModelTail.reading(bytes, from: 0, to: feature)
        } throws: { error in
            (error as? TasksError)?.reason.hasSuffix("is an input or a constant of the base model, not one its layers compute.")
                == true
        }
    }
}
