import Foundation
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// What the shared models hold. Values were read with the reference implementation,
/// tflite-support 0.4.4 (`tflite_support.metadata.MetadataDisplayer.get_metadata_json()`
/// and `get_packed_associated_file_list()`), and Python's `zipfile` for file contents.
struct ExpectedModel: CustomTestStringConvertible, Sendable {
    var file: String
    var metadataName: String?
    var minParserVersion: String?
    var subgraphMetadataCount: Int
    var inputName: String?
    var normalization: NormalizationOptions?
    var outputName: String?
    var outputFiles: [AssociatedFileInfo]
    var calibration: ScoreCalibrationOptions?
    var zipNames: [String]

    var testDescription: String { file }

    static let all: [ExpectedModel] = [
        ExpectedModel(
            file: "mobilenet_v1_0.25_224_quant.tflite", metadataName: "MobileNetV1 image classifier (quantized)",
            minParserVersion: nil, subgraphMetadataCount: 1, inputName: "image",
            normalization: NormalizationOptions(mean: [127.5], std: [127.5]), outputName: "probability",
            outputFiles: [AssociatedFileInfo(name: "labels.txt", type: .tensorAxisLabels)], calibration: nil,
            zipNames: ["labels.txt"]),
        ExpectedModel(
            file: "mobilenet_v1_0.25_224_1_metadata_1.tflite", metadataName: "MobileNetV1 image classifier",
            minParserVersion: nil, subgraphMetadataCount: 1, inputName: "image",
            normalization: NormalizationOptions(mean: [127.5], std: [127.5]), outputName: "probability",
            outputFiles: [AssociatedFileInfo(name: "labels.txt", type: .tensorAxisLabels)], calibration: nil,
            zipNames: ["labels.txt"]),
        ExpectedModel(
            file: "mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite",
            metadataName: "MobileNetV1 image classifier (quantized)", minParserVersion: "1.0.0",
            subgraphMetadataCount: 0, inputName: nil, normalization: nil, outputName: nil, outputFiles: [],
            calibration: nil, zipNames: ["labels.txt"]),
        ExpectedModel(
            file: "automl_labeler_model.tflite", metadataName: "AutoML image classifier", minParserVersion: "1.0.0",
            subgraphMetadataCount: 1, inputName: "image", normalization: NormalizationOptions(mean: [0], std: [1]),
            outputName: "probability", outputFiles: [AssociatedFileInfo(name: "labels.txt", type: .tensorAxisLabels)],
            calibration: nil, zipNames: ["labels.txt"]),
        ExpectedModel(
            file: "generated/mobilenet_v1_0.25_224_quant_localized.tflite", metadataName: "ImageClassifier",
            minParserVersion: "1.0.0", subgraphMetadataCount: 1, inputName: "input",
            normalization: NormalizationOptions(mean: [127.5], std: [127.5]),
            outputName: "MobilenetV1/Predictions/Reshape_1",
            outputFiles: [
                AssociatedFileInfo(name: "labels.txt", type: .tensorAxisLabels),
                AssociatedFileInfo(name: "labels_en.txt", type: .tensorAxisLabels, locale: "en"),
                AssociatedFileInfo(name: "labels_es.txt", type: .tensorAxisLabels, locale: "es"),
            ],
            calibration: nil, zipNames: ["labels.txt", "labels_en.txt", "labels_es.txt"]),
        ExpectedModel(
            file: "generated/mobilenet_v1_0.25_224_quant_calibrated.tflite", metadataName: "ImageClassifier",
            minParserVersion: "1.0.0", subgraphMetadataCount: 1, inputName: "input",
            normalization: NormalizationOptions(mean: [127.5], std: [127.5]),
            outputName: "MobilenetV1/Predictions/Reshape_1",
            outputFiles: [
                AssociatedFileInfo(name: "labels.txt", type: .tensorAxisLabels),
                AssociatedFileInfo(name: "score_calibration.txt", type: .tensorAxisScoreCalibration),
            ],
            calibration: ScoreCalibrationOptions(transformation: .inverseLogistic, defaultScore: 0.05),
            zipNames: ["labels.txt", "score_calibration.txt"]),
        ExpectedModel(
            file: "generated/mobilenet_v1_0.25_224_1_default_1_with_metadata.tflite", metadataName: "ImageClassifier",
            minParserVersion: "1.0.0", subgraphMetadataCount: 1, inputName: "input",
            normalization: NormalizationOptions(mean: [127.5], std: [127.5]),
            outputName: "MobilenetV1/Predictions/Reshape_1",
            outputFiles: [AssociatedFileInfo(name: "labels.txt", type: .tensorAxisLabels)], calibration: nil,
            zipNames: ["labels.txt"]),
    ]
}

/// Loads a shared model file.
func loadModel(_ name: String) throws -> (bytes: Data, model: TFLiteModelFile) {
    let bytes = try Data(contentsOf: TestData.model(name))
    return (bytes, try TFLiteModelFile(bytes: bytes))
}

@Suite("Shared models", .enabled(if: TestData.isAvailable, "\(TestData.missingReason)"))
struct ModelFileTests {
    @Test("metadata as tflite-support reads it", arguments: ExpectedModel.all)
    func metadata(expected: ExpectedModel) throws {
        let (_, model) = try loadModel(expected.file)
        #expect(model.subgraphCount == 1)
        let metadata = try #require(model.metadata)
        #expect(metadata.name == expected.metadataName)
        #expect(metadata.minParserVersion == expected.minParserVersion)
        #expect(metadata.subgraphs.count == expected.subgraphMetadataCount)
        #expect(model.associatedFiles.names == expected.zipNames)
        guard let subgraph = metadata.subgraphs.first else { return }

        #expect(subgraph.inputTensors.count == 1)
        #expect(subgraph.outputTensors.count == 1)
        let input = try #require(subgraph.inputTensors.first)
        #expect(input.name == expected.inputName)
        #expect(input.imageProperties == ImageProperties(colorSpace: .rgb))
        #expect(input.normalization == expected.normalization)
        #expect(input.scoreCalibration == nil)
        #expect(input.associatedFiles.isEmpty)

        let output = try #require(subgraph.outputTensors.first)
        #expect(output.name == expected.outputName)
        #expect(output.imageProperties == nil)
        #expect(output.normalization == nil)
        #expect(output.scoreCalibration == expected.calibration)
        #expect(output.scoreThresholding == nil)
        // Descriptions are compared with tflite-support's own reading in check_metadata_tools.py.
        #expect(
            output.associatedFiles.map { AssociatedFileInfo(name: $0.name, type: $0.type, locale: $0.locale) }
                == expected.outputFiles)
        for file in output.associatedFiles {
            #expect(try !model.associatedFiles.contents(of: file.name).isEmpty)
        }
    }

    @Test func quantizedModelLabels() throws {
        let (_, model) = try loadModel("mobilenet_v1_0.25_224_quant.tflite")
        let output = try #require(model.metadata?.subgraphs.first?.outputTensors.first)
        let labelsFile = try #require(output.associatedFiles(ofType: .tensorAxisLabels).first)
        #expect(labelsFile.name == "labels.txt")
        #expect(labelsFile.locale == nil)
        let labels = LabelFile.parse(try model.associatedFiles.contents(of: labelsFile.name))
        #expect(labels.count == 1001)
        #expect(labels.first == "background")
        #expect(labels[934] == "cheeseburger")
        #expect(labels.last == "toilet tissue")
    }

    @Test func modelWithoutMetadata() throws {
        let (_, model) = try loadModel("mobilenet_v1_0.25_224_1_default_1.tflite")
        #expect(model.subgraphCount == 1)
        #expect(model.metadata == nil)
        #expect(model.associatedFiles.names.isEmpty)
        #expect(!model.associatedFiles.hasArchive)
        let error = #expect(throws: TasksError.self) { try model.associatedFiles.contents(of: "labels.txt") }
        #expect(error?.code == .notFoundError)
        #expect(
            error?.message.hasPrefix("No associated file with name: labels.txt (the model has no zip of associated files") == true
        )
    }

    @Test func modelWithoutSubgraphMetadataStillHasItsZip() throws {
        let (_, model) = try loadModel("mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite")
        #expect(model.metadata?.subgraphs.isEmpty == true)
        #expect(LabelFile.parse(try model.associatedFiles.contents(of: "labels.txt")).count == 1001)
    }

    @Test func automlLabels() throws {
        let (_, model) = try loadModel("automl_labeler_model.tflite")
        let labels = LabelFile.parse(try model.associatedFiles.contents(of: "labels.txt"))
        #expect(labels == ["daisy", "dandelion", "roses", "sunflowers", "tulips"])
    }

    @Test func localizedLabels() throws {
        let (_, model) = try loadModel("generated/mobilenet_v1_0.25_224_quant_localized.tflite")
        let output = try #require(model.metadata?.subgraphs.first?.outputTensors.first)
        #expect(
            output.associatedFiles(ofType: .tensorAxisLabels).map(\.name) == ["labels.txt", "labels_en.txt", "labels_es.txt"])
        #expect(output.associatedFiles(ofType: .tensorAxisLabels, locale: "es").map(\.name) == ["labels_es.txt"])
        #expect(output.associatedFiles(ofType: .tensorAxisLabels, locale: "en").map(\.name) == ["labels_en.txt"])
        #expect(output.associatedFiles(ofType: .tensorAxisLabels, locale: "fr").isEmpty)
        #expect(
            output.associatedFiles(ofType: .tensorAxisLabels, locale: "").map(\.name) == [
                "labels.txt", "labels_en.txt", "labels_es.txt",
            ])
        #expect(output.associatedFiles(ofType: .tensorAxisScoreCalibration).isEmpty)

        let ids = LabelFile.parse(try model.associatedFiles.contents(of: "labels.txt"))
        let english = LabelFile.parse(try model.associatedFiles.contents(of: "labels_en.txt"))
        let spanish = LabelFile.parse(try model.associatedFiles.contents(of: "labels_es.txt"))
        #expect(ids.count == 1001 && english.count == 1001 && spanish.count == 1001)
        #expect(ids[934] == "/m/00934")
        #expect(english[934] == "cheeseburger")
        #expect(spanish[934] == "hamburguesa con queso")
        #expect(spanish[0] == "background (es)")
    }

    /// Rows from `../shared/tools/make_metadata_models.py`: row i is empty when i % 97 == 5,
    /// else "0.9+(i%7)/100, 1+(i%5)/10, -0.2+(i%3)/10", plus ",0.001" when i % 11 == 0;
    /// joined with "\n", no trailing newline (checked with Python's zipfile).
    @Test func calibrationFile() throws {
        let (_, model) = try loadModel("generated/mobilenet_v1_0.25_224_quant_calibrated.tflite")
        let output = try #require(model.metadata?.subgraphs.first?.outputTensors.first)
        let file = try #require(output.associatedFiles(ofType: .tensorAxisScoreCalibration).first)
        #expect(file.name == "score_calibration.txt")
        let sigmoids = try ScoreCalibrationFile.parse(try model.associatedFiles.contents(of: file.name))
        #expect(sigmoids.count == 1001)
        #expect(sigmoids.indices.filter { sigmoids[$0] == nil } == [5, 102, 199, 296, 393, 490, 587, 684, 781, 878, 975])
        #expect(sigmoids.compactMap { $0?.minScore }.count == 90)
        #expect(sigmoids[0] == Sigmoid(scale: 0.90, slope: 1.0, offset: -0.2, minScore: 0.001))
        #expect(sigmoids[1] == Sigmoid(scale: 0.91, slope: 1.1, offset: -0.1))
        #expect(sigmoids[11] == Sigmoid(scale: 0.94, slope: 1.1, offset: 0.0, minScore: 0.001))
        #expect(sigmoids[1000] == Sigmoid(scale: 0.96, slope: 1.0, offset: -0.1))
    }

    /// The metadata buffer inside the model parses on its own to the same value.
    @Test func metadataBufferParsesAlone() throws {
        let (bytes, model) = try loadModel("mobilenet_v1_0.25_224_quant.tflite")
        let metadataBytes = try #require(MetadataLocation.find(in: bytes)).bytes
        #expect(try ModelMetadata(bytes: metadataBytes) == model.metadata)
    }
}

/// Finds a model's metadata buffer by its "M001" identifier: the `[ubyte]` vector's length
/// is the 4 bytes before the buffer.
struct MetadataLocation {
    var start: Int
    var count: Int
    var bytes: Data

    static func find(in model: Data) -> MetadataLocation? {
        guard let identifier = model.range(of: Data("M001".utf8)) else { return nil }
        let start = identifier.lowerBound - 4 - model.startIndex
        let count = (0..<4).reduce(0) { $0 | Int(model[model.startIndex + start - 4 + $1]) << (8 * $1) }
        return MetadataLocation(
            start: start, count: count, bytes: model.subdata(in: (model.startIndex + start)..<(model.startIndex + start + count)))
    }
}
