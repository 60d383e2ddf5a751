import Foundation
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// Metadata and model buffers built by `FlatBufferBuilder`, for the cases the shared models
/// do not cover. Expected messages are MediaPipe's texts (`metadata_extractor.cc`).
@Suite struct MetadataTests {
    @Test func builtMetadataRoundTrips() throws {
        let bytes = TestModels.metadata(
            inputs: [
                TestModels.tensor(
                    name: "image", imageColorSpace: 2,
                    processUnits: [TestModels.processUnit(type: 1, options: [0: .floats([1, 2, 3]), 1: .floats([4, 5, 6])])])
            ],
            outputs: [
                TestModels.tensor(
                    name: "scores",
                    processUnits: [
                        TestModels.processUnit(type: 3, options: [0: .float(0.25)]),
                        TestModels.processUnit(type: 2, options: [0: .uint8(1)]),
                        TestModels.processUnit(type: 4, options: [:]),  // a tokenizer unit: ignored
                    ],
                    files: [
                        TestModels.associatedFile("a.txt", type: 2, locale: "fr"),
                        TestModels.associatedFile("index.bin", type: 6),
                        .table([2: .uint8(2)]),  // no name: skipped
                        TestModels.associatedFile("cal.txt", type: 4),
                    ])
            ])
        let metadata = try ModelMetadata(bytes: Data(bytes))
        #expect(metadata.name == "test")
        #expect(metadata.minParserVersion == "1.0.0")
        let subgraph = try #require(metadata.subgraphs.first)
        #expect(
            subgraph.inputTensors == [
                TensorMetadata(
                    name: "image", imageProperties: ImageProperties(colorSpace: .grayscale),
                    normalization: NormalizationOptions(mean: [1, 2, 3], std: [4, 5, 6]))
            ])
        #expect(
            subgraph.outputTensors == [
                TensorMetadata(
                    name: "scores",
                    scoreCalibration: ScoreCalibrationOptions(transformation: .log, defaultScore: 0),
                    scoreThresholding: ScoreThresholdingOptions(globalScoreThreshold: 0.25),
                    associatedFiles: [
                        AssociatedFileInfo(name: "a.txt", type: .tensorAxisLabels, locale: "fr"),
                        AssociatedFileInfo(name: "index.bin", type: .other(6)),
                        AssociatedFileInfo(name: "cal.txt", type: .tensorAxisScoreCalibration),
                    ])
            ])
        #expect(subgraph.outputTensors[0].associatedFiles(ofType: .other(6)).map(\.name) == ["index.bin"])
    }

    @Test func enumRawValuesRoundTrip() {
        for raw in Int8.min...Int8.max {
            #expect(AssociatedFileType(rawValue: raw).rawValue == raw)
            #expect(ImageProperties.ColorSpace(rawValue: raw).rawValue == raw)
        }
        #expect(AssociatedFileType(rawValue: 4) == .tensorAxisScoreCalibration)
        #expect(ImageProperties.ColorSpace(rawValue: 1) == .rgb)
    }

    @Test(
        "schema identifier",
        arguments: [
            ("M002", "Invalid metadata schema version: expected M001, got M002"),
            ("TFL3", "Invalid metadata schema version: expected M001, got TFL3"),
            ("", "Invalid metadata schema version: expected M001, got \\x00\\x00\\x00\\x00"),
        ])
    func wrongIdentifier(identifier: String, message: String) {
        let bytes = TestModels.metadata(identifier: identifier)
        expectTasksError(.invalidArgumentError, message: message) { _ = try ModelMetadata(bytes: Data(bytes)) }
    }

    @Test("min_parser_version accepted", arguments: ["1.0.0", "1.5.0", "1.5", "1", "1.4.99", "0.9", "1.5.0.0", "01.05.00", ""])
    func parserVersionAccepted(version: String) throws {
        let metadata = try ModelMetadata(bytes: Data(TestModels.metadata(minParserVersion: version)))
        #expect(metadata.minParserVersion == version)
    }

    @Test("min_parser_version refused", arguments: ["9.0.0", "1.5.1", "1.6", "2", "1.5.0.1", "1.10.0"])
    func parserVersionRefused(version: String) {
        expectTasksError(
            .invalidArgumentError,
            message:
                "Metadata schema version 1.5.0 is smaller than the minimum version \(version) to parse the metadata flatbuffer."
        ) { _ = try ModelMetadata(bytes: Data(TestModels.metadata(minParserVersion: version))) }
    }

    @Test("min_parser_version not a version", arguments: ["one.two", "1.x.0", "99999999999.0"])
    func parserVersionInvalid(version: String) {
        expectTasksError(
            .invalidArgumentError, message: "Invalid min_parser_version '\(version)' in the model metadata", prefix: true
        ) {
            _ = try ModelMetadata(bytes: Data(TestModels.metadata(minParserVersion: version)))
        }
    }

    @Test(
        "duplicate process units",
        arguments: [
            (UInt8(1), "NormalizationOptions"), (UInt8(2), "ScoreCalibrationOptions"), (UInt8(3), "ScoreThresholdingOptions"),
        ])
    func duplicateProcessUnits(type: UInt8, name: String) {
        let unit = TestModels.processUnit(type: type, options: [:])
        let bytes = TestModels.metadata(inputs: [], outputs: [TestModels.tensor(name: "out", processUnits: [unit, unit])])
        expectTasksError(.invalidArgumentError, message: "Found multiple ProcessUnits with type=\(name), expected at most one.") {
            _ = try ModelMetadata(bytes: Data(bytes))
        }
    }

    @Test func duplicateIgnoredUnitsAreAccepted() throws {
        let unit = TestModels.processUnit(type: 5, options: [:])
        let bytes = TestModels.metadata(inputs: [TestModels.tensor(name: "in", processUnits: [unit, unit])], outputs: [])
        #expect(try ModelMetadata(bytes: Data(bytes)).subgraphs[0].inputTensors[0].normalization == nil)
    }

    @Test func unknownScoreTransformation() {
        let unit = TestModels.processUnit(type: 2, options: [0: .uint8(7), 1: .float(0.5)])
        let bytes = TestModels.metadata(inputs: [], outputs: [TestModels.tensor(name: "out", processUnits: [unit])])
        expectTasksError(
            .invalidArgumentError, message: "Unsupported score_transformation 7 in ScoreCalibrationOptions", prefix: true
        ) {
            _ = try ModelMetadata(bytes: Data(bytes))
        }
    }

    @Test func processUnitWithoutOptions() {
        let bytes = TestModels.metadata(
            inputs: [TestModels.tensor(name: "in", processUnits: [.table([0: .uint8(1)])])], outputs: [])
        expectTasksError(
            .invalidArgumentError,
            message:
                "The model metadata is not a valid FlatBuffer buffer: ModelMetadata.subgraph_metadata[0].input_tensor_metadata[0].process_units[0]: options_type is NormalizationOptions but options is missing"
        ) { _ = try ModelMetadata(bytes: Data(bytes)) }
    }

    /// Many references to one table: the work is bounded by the table limit, not multiplied.
    @Test(.hangGuard) func sharedTablesAreBounded() {
        // The bound on the work: CPU time, which a busy machine does not stretch.
        let budget = CPUTimeBudget(.seconds(60))
        defer { budget.expectWithin() }
        let tensor = TestModels.tensor(name: "t", files: [TestModels.associatedFile("f", type: 2)])
        let subgraph = FB.table([3: .sharedTables(tensor, count: 2000)])
        let bytes = FB.buffer(root: .table([3: .sharedTables(subgraph, count: 2000)]), identifier: "M001")
        #expect(bytes.count < 20_000)
        expectTasksError(.invalidArgumentError, message: "The model metadata is not a valid FlatBuffer buffer: ", prefix: true) {
            _ = try ModelMetadata(bytes: Data(bytes))
        }
    }

    // MARK: Model buffers

    @Test func inlineMetadataBuffer() throws {
        let metadata = TestModels.metadata(name: "inline")
        let model = try TFLiteModelFile(bytes: Data(TestModels.model(subgraphCount: 2, storage: .inline(metadata))))
        #expect(model.subgraphCount == 2)
        #expect(model.metadata?.name == "inline")
    }

    @Test func externalMetadataBuffer() throws {
        let metadata = TestModels.metadata(name: "external")
        let bytes = TestModels.model(storage: .external(metadata))
        let model = try TFLiteModelFile(bytes: Data(bytes))
        #expect(model.metadata?.name == "external")
        // Cut the external bytes: the buffer's offset/size now point past the end.
        let cut = Data(bytes.dropLast(1))
        expectTasksError(
            .invalidArgumentError, message: "The model is not a valid TFLite model: Model.buffers[1]: external buffer at offset",
            prefix: true
        ) {
            _ = try TFLiteModelFile(bytes: cut)
        }
    }

    @Test func noMetadataEntry() throws {
        let model = try TFLiteModelFile(bytes: Data(TestModels.model(subgraphCount: 0, storage: .none)))
        #expect(model.subgraphCount == 0)
        #expect(model.metadata == nil)
    }

    @Test func outOfRangeBufferIndex() {
        expectTasksError(.invalidArgumentError, message: "Metadata refers to an out-of-range buffer index.", prefix: true) {
            _ = try TFLiteModelFile(bytes: Data(TestModels.model(storage: .bufferIndex(5))))
        }
    }

    @Test func bufferWithoutData() {
        expectTasksError(.invalidArgumentError, message: "Metadata buffer has no data.", prefix: true) {
            _ = try TFLiteModelFile(bytes: Data(TestModels.model(storage: .emptyBuffer)))
        }
    }

    @Test func metadataErrorsPassThroughTheModel() {
        let bytes = TestModels.model(storage: .inline(TestModels.metadata(minParserVersion: "9.0.0")))
        expectTasksError(
            .invalidArgumentError,
            message: "Metadata schema version 1.5.0 is smaller than the minimum version 9.0.0 to parse the metadata flatbuffer."
        ) {
            _ = try TFLiteModelFile(bytes: Data(bytes))
        }
    }

    @Test func metadataSliceOfLargerData() throws {
        // A `Data` slice that does not start at index 0 parses the same.
        let metadata = TestModels.metadata(name: "slice")
        let padded = Data([1, 2, 3] + TestModels.model(storage: .inline(metadata)))
        let model = try TFLiteModelFile(bytes: padded[3...])
        #expect(model.metadata?.name == "slice")
    }
}
