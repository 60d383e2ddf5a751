import Foundation
import LiteRT
import TFLiteMetadata
import TestSupport
import Testing

@testable import TaskRuntime
@testable import VisionTasks

/// Models whose input or output MediaPipe's classifier cannot use fail at creation, with a
/// message naming the tensor and its shape or type; the accepted output shapes work.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelContractTests {
    static let quantized = "mobilenet_v1_0.25_224_quant.tflite"

    func classifier(_ patch: (inout ModelPatcher) -> Void) throws -> ImageClassifier {
        var patcher = ModelPatcher(try TestData.bytes("models/\(Self.quantized)"))
        patch(&patcher)
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = patcher.data
        return try ImageClassifier(options: options)
    }

    func creationError(_ patch: (inout ModelPatcher) -> Void) -> TasksError? {
        #expect(throws: TasksError.self) { try classifier(patch) }
    }

    @Test func oneChannelInputIsRejected() {
        let error = creationError { $0.setShape([1, 224, 224, 1], of: .input) }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message == "The input tensor should have dimensions 1 x height x width x depth, where depth = 3. "
                + "Got 1 x 224 x 224 x 1 for input tensor input.")
    }

    @Test func batchOfTwoIsRejected() {
        let error = creationError { $0.setShape([2, 224, 224, 3], of: .input) }
        #expect(
            error?.message == "The input tensor should have dimensions 1 x height x width x depth, where depth = 3. "
                + "Got 2 x 224 x 224 x 3 for input tensor input.")
    }

    /// MediaPipe's message, with INT8 added to the types (an extension, see Int8ModelTests).
    @Test func int16InputIsRejected() {
        let error = creationError { $0.setType(7, of: .input) }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message == "Type mismatch for input tensor input. Requested one of these types: uint8/int8/float32, got INT16."
        )
    }

    @Test func outputWithBatchOfTwoIsRejected() {
        let error = creationError { $0.setShape([2, 1001], of: .output) }
        #expect(
            error?.message
                == "Output tensor 0 MobilenetV1/Predictions/Reshape_1 (UINT8 [2, 1001]) has an unsupported shape: expected [N], [1, N], "
                + "[1, 1, N] or [1, 1, 1, N] (every dimension but the last equal to 1).")
    }

    @Test func int16OutputIsRejected() {
        let error = creationError { $0.setType(7, of: .output) }
        #expect(
            error?.message.hasSuffix("has an unsupported type: expected FLOAT32, UINT8 or INT8.") == true,
            "\(error?.message ?? "")")
    }

    /// [1, N] is the model's own shape and classifies.
    @Test func outputOfShapeOneByNWorks() throws {
        let result = try classifier { _ in }.classify(image: try MPImage(contentsOf: TestData.image("burger.jpg")))
        #expect(result.classificationResult.classifications[0].categories.first?.index == 934)
    }

    /// Every dimension but the last equal to 1 is accepted (as MediaPipe classifies them; see
    /// OutputShapeTests for real models), others are not. Checked on the head builder the classifier uses.
    @Test(arguments: [
        ([1, 1, 1, 5], true), ([1, 5], true), ([5], true), ([1, 1, 5], true), ([1, 5, 1, 1], false),
        ([1, 2, 1, 5], false), ([2, 5], false),
    ])
    func outputShapeRule(shape: [Int], accepted: Bool) {
        let tensor = TensorDescription(name: "scores", elementType: .float32, shape: shape, quantization: nil)
        let build = {
            try ClassificationHead(
                index: 0, tensor: tensor, metadata: nil, files: AssociatedFiles(modelBytes: Data()), locale: "en")
        }
        if accepted {
            #expect((try? build())?.categoryCount == 5)
        } else {
            let error = #expect(throws: TasksError.self) { try build() }
            #expect(error?.message.contains("scores (FLOAT32 [\(shape.map(String.init).joined(separator: ", "))])") == true)
        }
    }
}
