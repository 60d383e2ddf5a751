import Foundation
import TestSupport
import Testing
import VisionTasks

/// Full-integer models with INT8 input and output (which MediaPipe refuses): the uint8 mobilenet
/// wrapped to int8 ends (`Int8WrappedModel`: QUANTIZE ops with the zero points shifted by 128)
/// gives the uint8 model's scores, and INT8 tensors without quantization are clear errors.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct Int8ModelTests {
    static let quantized = "mobilenet_v1_0.25_224_quant.tflite"

    /// The wrapped model. Its normalization is the uint8 input's own quantization (scale 1/128,
    /// zero point 128: real = (p - 128) / 128), which the uint8 model applies to the bytes;
    /// quantized with the int8 input's scale 1/128 and zero point 0 it gives exactly p - 128.
    static func wrapped(_ patch: (inout ModelPatcher) -> Void = { _ in }) throws -> Data {
        var uint8 = ModelPatcher(try TestData.bytes("models/\(quantized)"))
        uint8.replaceMetadata(
            with: ClassifierMetadata.bytes(name: "MobileNetV1 image classifier (int8)", mean: [128], std: [128]))
        var int8 = ModelPatcher(Data(Int8WrappedModel.bytes(wrapping: uint8.data)))
        patch(&int8)
        return int8.data
    }

    static func classifier(_ model: Data) throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = model
        options.scoreThreshold = -Float.greatestFiniteMagnitude
        return try ImageClassifier(options: options)
    }

    @Test func wrappedModelHasInt8Ends() throws {
        let model = ModelPatcher(try Self.wrapped())
        #expect(model.scale(of: .input) == 1.0 / 128 && model.zeroPoint(of: .input) == 0)
        #expect(model.scale(of: .output) == 1.0 / 256 && model.zeroPoint(of: .output) == -128)
    }

    @Test(arguments: ["burger.jpg", "sparrow.png", "cats_and_dogs.jpg", "grace_hopper.jpg"])
    func wrappedModelGivesTheUInt8Scores(image: String) throws {
        let picture = try MPImage(contentsOf: TestData.image(image))
        let int8 = try Self.classifier(Self.wrapped()).classify(image: picture).classificationResult.classifications[0]
        let uint8 = try Self.classifier(TestData.bytes("models/\(Self.quantized)")).classify(image: picture)
            .classificationResult.classifications[0]
        #expect(int8.categories.count == 1001)
        #expect(int8.categories.first?.index == uint8.categories.first?.index)
        #expect(int8.categories.first?.categoryName == uint8.categories.first?.categoryName)
        let expected = Dictionary(uniqueKeysWithValues: uint8.categories.map { ($0.index, $0.score) })
        let step: Float = 1.0 / 256
        let worst = int8.categories.map { abs($0.score - (expected[$0.index] ?? .infinity)) }.max() ?? .infinity
        #expect(worst <= step, "largest score difference \(worst)")
    }

    @Test func int8InputWithoutQuantizationIsAnError() throws {
        let model = try Self.wrapped { $0.removeQuantization(of: .input) }
        let error = #expect(throws: TasksError.self) { try Self.classifier(model) }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message
                == "Input tensor image_int8 (INT8 [1, 224, 224, 3]) has no valid quantization parameters (scale > 0 "
                + "and a zero point in -128...127, got none): an INT8 image input needs them to quantize the normalized pixels."
        )
    }

    @Test func int8OutputWithoutQuantizationIsAnError() throws {
        let model = try Self.wrapped { $0.removeQuantization(of: .output) }
        let error = #expect(throws: TasksError.self) { try Self.classifier(model) }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message
                == "Output tensor 0 scores_int8 (INT8 [1, 1001]) has no valid quantization parameters (scale > 0): "
                + "INT8 scores cannot be dequantized without them.")
    }

    /// As for float inputs, the normalized value must be known to quantize it.
    @Test func int8InputWithoutNormalizationIsAnError() throws {
        let model = Data(
            Int8WrappedModel.bytes(
                wrapping: try TestData.bytes("models/mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite")))
        let error = #expect(throws: TasksError.self) { try Self.classifier(model) }
        #expect(error?.code == .notFoundError)
        #expect(
            error?.message
                == "Input tensor has type int8: it requires specifying NormalizationOptions metadata to preprocess input images."
                + addNormalizationHint)
    }
}
