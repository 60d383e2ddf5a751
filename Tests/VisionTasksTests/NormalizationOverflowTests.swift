import Foundation
import TestSupport
import Testing
import VisionTasks

/// NormalizationOptions whose values are finite but map pixels past the largest float (a huge
/// mean over a small std) are refused when the classifier is created: an INT8 input could not
/// quantize the resulting NaN (the process stopped), and a FLOAT32 input would take NaNs.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct NormalizationOverflowTests {
    static let message =
        "NormalizationOptions mean [1e+35] and std [1e-05] map pixel values 0...255 outside the range of 32-bit floats."

    @Test func int8Input() throws {
        var uint8 = ModelPatcher(try TestData.bytes("models/mobilenet_v1_0.25_224_quant.tflite"))
        uint8.replaceMetadata(with: ClassifierMetadata.bytes(name: "int8", mean: [1e35], std: [1e-5]))
        let model = Data(Int8WrappedModel.bytes(wrapping: uint8.data))
        let error = #expect(throws: TasksError.self) { try Int8ModelTests.classifier(model) }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.message == Self.message)
    }

    @Test func float32Input() throws {
        var model = ModelPatcher(try TestData.bytes("models/mobilenet_v1_0.25_224_1_metadata_1.tflite"))
        model.replaceMetadata(with: ClassifierMetadata.bytes(name: "float", mean: [1e35], std: [1e-5]))
        let error = #expect(throws: TasksError.self) { try Int8ModelTests.classifier(model.data) }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.message == Self.message)
    }
}
