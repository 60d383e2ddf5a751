import Foundation
import LiteRT
import TFLiteMetadata
import TestSupport
import Testing

@testable import TaskRuntime
@testable import VisionTasks

/// Which models the embedder takes and refuses, with MediaPipe's messages, and how heads are named.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct EmbedderModelContractTests {
    @Test(arguments: [
        ("mobilenet_v2_035_96_embedder_with_metadata.tflite", 96, 1280),
        ("mobilenet_v1_1.0_224_quant_embedding_extractor.tflite", 224, 1024),
    ])
    func embedderModels(model: String, side: Int, dimension: Int) throws {
        let embedder = try ImageEmbedder(modelPath: TestData.model(model).path)
        #expect(embedder.runningMode == .image)
        #expect(embedder.inputImageSize == CGSize(width: side, height: side))
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let result = try embedder.embed(image: image)
        #expect(result.embeddingResult.embeddings.map(\.floatEmbedding?.count) == [dimension])
        #expect(result.embeddingResult.embeddings[0].quantizedEmbedding == nil)
    }

    @Test func floatModelWithoutNormalizationIsRefused() throws {
        let model = TestData.model("mobilenet_v1_0.25_224_1_default_1.tflite").path
        let error = #expect(throws: TasksError.self) { try ImageEmbedder(modelPath: model) }
        #expect(error?.code == .notFoundError)
        #expect(
            error?.reason
                == "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess input images."
                + addNormalizationHint
        )
        #expect(error?.subject == .file(model))
    }

    /// An INT8 output (the classifier's extension) is refused, as MediaPipe's embedder refuses it.
    @Test func int8OutputIsRefused() throws {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetBuffer = try Int8ModelTests.wrapped()
        expectTasksError(
            .invalidArgumentError, message: "Expected output tensor at index 0 to have type UINT8 or FLOAT32, found INT8 instead."
        ) { try ImageEmbedder(options: options) }
    }

    @Test func optionErrors() throws {
        let options = ImageEmbedderOptions()
        expectTasksError(
            .invalidArgumentError,
            message:
                "ExternalFile must specify at least one of 'file_content', 'file_name', 'file_pointer_meta' or 'file_descriptor_meta'."
        ) { try ImageEmbedder(options: options) }
        options.baseOptions.modelAssetPath = TestData.model(EmbedderGoldenTests.models[0]).path
        options.baseOptions.delegate = .GPU
        let error = expectTasksError(
            .invalidArgumentError, message: "The GPU delegate is not available on Linux; use Delegate.CPU."
        ) {
            try ImageEmbedder(options: options)
        }
        #expect(error?.subject == .option("delegate"))
    }
}

/// The output checks of MediaPipe's embedding postprocessing graph, on described tensors.
struct EmbeddingHeadTests {
    static func tensor(_ type: ElementType, _ shape: [Int] = [1, 4]) -> TensorDescription {
        TensorDescription(
            name: "out", elementType: type, shape: shape,
            quantization: type == .uint8 ? Quantization(scale: 0.5, zeroPoint: 2) : nil)
    }

    static func metadata(_ names: [String?]) -> SubGraphMetadata {
        SubGraphMetadata(outputTensors: names.map { TensorMetadata(name: $0) })
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let outputs: [TensorDescription]
        let metadata: SubGraphMetadata?
        /// Head names and dimensions, or MediaPipe's error.
        let expected: Result<[Head], TasksError>
        var testDescription: String { id }
    }

    struct Head: Equatable, Sendable {
        let name: String?
        let dimension: Int
    }

    static let cases: [Case] = [
        Case(id: "no metadata", outputs: [tensor(.float32)], metadata: nil, expected: .success([Head(name: nil, dimension: 4)])),
        Case(
            id: "any shape", outputs: [tensor(.uint8, [1, 7, 7, 8])], metadata: nil,
            expected: .success([Head(name: nil, dimension: 392)])),
        Case(
            id: "named", outputs: [tensor(.float32)], metadata: metadata(["embedding"]),
            expected: .success([Head(name: "embedding", dimension: 4)])),
        Case(
            id: "metadata without names", outputs: [tensor(.float32), tensor(.float32)], metadata: metadata([nil, nil]),
            expected: .success([Head(name: nil, dimension: 4), Head(name: nil, dimension: 4)])),
        Case(
            id: "one of two named", outputs: [tensor(.float32), tensor(.float32, [2])], metadata: metadata([nil, "b"]),
            expected: .success([Head(name: "", dimension: 4), Head(name: "b", dimension: 2)])),
        Case(
            id: "bool output", outputs: [tensor(.float32), tensor(.bool)], metadata: nil,
            expected: .failure(
                .invalidArgument("Expected output tensor at index 1 to have type UINT8 or FLOAT32, found BOOL instead."))),
        Case(
            id: "mixed", outputs: [tensor(.float32), tensor(.uint8)], metadata: nil,
            expected: .failure(
                .invalidArgument(
                    "Expected either all or none of the output tensors to be quantized, but found 1 quantized outputs for 2 total outputs."
                ))),
        Case(
            id: "metadata count", outputs: [tensor(.float32), tensor(.float32)], metadata: metadata(["a"]),
            expected: .failure(.invalidArgument("Mismatch between number of output tensors (2) and output tensors metadata (1)."))
        ),
    ]

    @Test(arguments: cases)
    func heads(_ item: Case) {
        let result = Result { () throws(TasksError) in
            try EmbeddingHead.heads(outputs: item.outputs, metadata: item.metadata).map {
                Head(name: $0.name, dimension: $0.dimension)
            }
        }
        switch (result, item.expected) {
        case (.success(let heads), .success(let expected)): #expect(heads == expected)
        case (.failure(let error), .failure(let expected)): #expect(error == expected)
        default: Issue.record("\(item.id): \(result), expected \(item.expected)")
        }
    }
}
