import Foundation
import TFLiteMetadata
import TaskRuntime
import TestSupport
import Testing

/// `ModelInspection`: MediaPipe's verdict from its rules, this package's from its own classifier.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelInspectionTests {
    static let floatModel = "models/mobilenet_v1_0.25_224_1_default_1.tflite"

    @Test func perChannelNormalizationIsRefusedByMediaPipe() throws {
        let written = try ModelMetadataWriter.write(
            model: TestData.bytes(Self.floatModel),
            metadata: .init(normalization: .init(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375])))
        let inspection = try ModelInspection(bytes: written.model)
        #expect(inspection.mediaPipeRefusal == "Per-channel image normalization is not available.")
        #expect(inspection.metadata?.subgraphs.first?.inputTensors.first?.normalization?.mean == [123.675, 116.28, 103.53])
    }

    @Test func equalPerChannelValuesAreAccepted() throws {
        let written = try ModelMetadataWriter.write(
            model: TestData.bytes(Self.floatModel),
            metadata: .init(normalization: .init(mean: [127.5, 127.5, 127.5], std: [127.5, 127.5, 127.5])))
        let inspection = try ModelInspection(bytes: written.model)
        #expect(inspection.mediaPipeRefusal == nil)
        #expect(inspection.productRefusal == nil)
    }

    @Test func int8InputIsRefusedByMediaPipe() throws {
        var patcher = ModelPatcher(try TestData.bytes("models/mobilenet_v1_0.25_224_quant.tflite"))
        patcher.setType(9, of: .input)
        let inspection = try ModelInspection(bytes: patcher.data)
        #expect(inspection.inputs.first?.typeName == "INT8")
        #expect(
            inspection.mediaPipeRefusal
                == "Type mismatch for input tensor input. Requested one of these types: uint8/float32, got INT8.")
    }

    /// MediaPipe 1.2.3 crashes on metadata whose subgraph_metadata is an empty list; the verdict
    /// says so, and this package reads the model as one without subgraph metadata.
    @Test func emptySubgraphMetadataListCrashesMediaPipe() throws {
        var patcher = ModelPatcher(try TestData.bytes("models/mobilenet_v1_0.25_224_1_metadata_1.tflite"))
        let empty = FB.table([0: .string("no subgraphs"), 3: .tables([]), 7: .string("1.0.0")])
        patcher.replaceMetadata(with: FB.buffer(root: empty, identifier: "M001"))
        let inspection = try ModelInspection(bytes: patcher.data)
        #expect(inspection.metadata?.hasEmptySubgraphList == true)
        #expect(
            inspection.mediaPipeRefusal
                == "The model's metadata has an empty subgraph_metadata list: MediaPipe 1.2.3 crashes (SIGSEGV) "
                + "loading it, as it reads the list's first entry without checking.")
        // Without tensor metadata the float model has no normalization: a clear error here.
        #expect(
            inspection.productRefusal
                == "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess "
                + "input images." + addNormalizationHint)
    }

    /// An absent list is not an empty one: MediaPipe reads that as no subgraph metadata.
    @Test func absentSubgraphMetadataListIsNotEmpty() throws {
        let metadata = try ModelMetadata(bytes: Data(FB.buffer(root: FB.table([0: .string("m")]), identifier: "M001")))
        #expect(metadata.subgraphs.isEmpty && !metadata.hasEmptySubgraphList)
    }

    @Test func labelCountMismatchIsReported() throws {
        let written = try ModelMetadataWriter.write(
            model: Data(ReshapeModel.bytes(outputShape: [1, 48])),
            metadata: .init(labels: [.init(fileName: "labels.txt", labels: (0..<48).map { "c\($0)" })]))
        var patcher = ModelPatcher(written.model)
        patcher.setShape([1, 47], of: .output)
        let inspection = try ModelInspection(bytes: patcher.data)
        #expect(
            inspection.mediaPipeRefusal
                == "Output 0: labels.txt has 48 labels for 47 scores (MediaPipe fails at the first classification).")
        #expect(inspection.productRefusal != nil)
        #expect(inspection.labelCount("labels.txt") == 48)
    }

    @Test func bareFloatModelIsRefusedByBoth() throws {
        let inspection = try ModelInspection(bytes: TestData.bytes(Self.floatModel))
        let reason =
            "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess input images."
        #expect(inspection.mediaPipeRefusal == reason)
        #expect(inspection.productRefusal == reason + addNormalizationHint)
        #expect(inspection.metadata == nil && inspection.packedFiles.isEmpty)
        #expect(inspection.outputs.map(\.shape) == [[1, 1001]])
    }
}
