import Foundation
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// `ModelMetadataWriter`: what it writes reads back field for field with the reader MediaPipe's
/// rules are checked with, on a built model (no shared data needed) and on the shared models.
@Suite struct MetadataWriterTests {
    /// A real model without metadata: a UINT8 `[1, 4, 4, 3]` input reshaped to a `[1, 48]` output.
    static let bareModel = Data(ReshapeModel.bytes(outputShape: [1, 48]))
    static let labels = (0..<48).map { "category \($0)" }
    static let calibration = Data(
        ((0..<47).map { "1.0,\(Double($0) / 10),-0.5" } + ["0.9,1,0,0.25"]).joined(separator: "\n").utf8)

    static let full = ImageClassifierMetadata(
        name: "Flowers", description: "Tells flowers apart.", version: "v2", author: "Someone",
        license: "Apache-2.0", normalization: .init(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375]),
        labels: [
            .init(fileName: "labels.txt", labels: labels),
            .init(fileName: "labels_es.txt", labels: labels.map { "categoría " + $0.dropFirst(9) }, locale: "es"),
        ],
        scoreCalibration: .init(fileName: "calibration.txt", contents: calibration, transformation: .log, defaultScore: 0.125))

    @Test func everyFieldReadsBack() throws {
        let result = try ModelMetadataWriter.write(model: Self.bareModel, metadata: Self.full)
        #expect(result.replaced.isEmpty)
        let file = try TFLiteModelFile(bytes: result.model)
        let metadata = try #require(file.metadata)
        #expect(metadata.name == "Flowers")
        #expect(metadata.description == "Tells flowers apart.")
        #expect(metadata.version == "v2")
        #expect(metadata.author == "Someone")
        #expect(metadata.license == "Apache-2.0")
        #expect(metadata.minParserVersion == "1.0.0")
        let subgraph = try #require(metadata.subgraphs.first)
        #expect(metadata.subgraphs.count == 1)
        let input = try #require(subgraph.inputTensors.first)
        #expect(input.name == "image")
        #expect(input.imageProperties == ImageProperties(colorSpace: .rgb))
        #expect(input.normalization == NormalizationOptions(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375]))
        let output = try #require(subgraph.outputTensors.first)
        #expect(output.name == "probability")
        #expect(output.scoreCalibration == ScoreCalibrationOptions(transformation: .log, defaultScore: 0.125))
        #expect(output.associatedFiles.map(\.name) == ["labels.txt", "labels_es.txt", "calibration.txt"])
        #expect(output.associatedFiles.map(\.type) == [.tensorAxisLabels, .tensorAxisLabels, .tensorAxisScoreCalibration])
        #expect(output.associatedFiles.map(\.locale) == [nil, "es", nil])
        #expect(file.associatedFiles.names == ["labels.txt", "labels_es.txt", "calibration.txt"])
        #expect(LabelFile.parse(try file.associatedFiles.contents(of: "labels.txt")) == Self.labels)
        #expect(LabelFile.parse(try file.associatedFiles.contents(of: "labels_es.txt")).first == "categoría 0")
        #expect(try file.associatedFiles.contents(of: "calibration.txt") == Self.calibration)
        // The graph is untouched: same tensors, and the old FlatBuffer follows the new root unchanged.
        let (inputs, outputs) = try ModelTensor.tensors(inModel: result.model)
        let (oldInputs, oldOutputs) = try ModelTensor.tensors(inModel: Self.bareModel)
        #expect(inputs == oldInputs && outputs == oldOutputs)
        #expect(result.model.firstRange(of: Self.bareModel.dropFirst(8)) != nil)
    }

    @Test func schemaIdentifiersAndAlignment() throws {
        let model = try ModelMetadataWriter.write(model: Self.bareModel, metadata: Self.full).model
        #expect(Array(model[4..<8]) == Array("TFL3".utf8))
        let metadataStart = try #require(model.firstRange(of: Data("M001".utf8))).lowerBound - 4
        // Buffer.data is force_align 16 in the TFLite schema.
        #expect(metadataStart % 16 == 0)
        // The old FlatBuffer keeps its alignment modulo 64.
        let old = try #require(model.firstRange(of: Self.bareModel.dropFirst(8))).lowerBound - 8
        #expect(old % 64 == 0)
    }

    @Test func writingTwiceReplacesNothingAndKeepsOneZip() throws {
        let once = try ModelMetadataWriter.write(model: Self.bareModel, metadata: Self.full)
        let twice = try ModelMetadataWriter.write(model: once.model, metadata: Self.full)
        #expect(twice.replaced.isEmpty)
        let file = try TFLiteModelFile(bytes: twice.model)
        #expect(file.associatedFiles.names == ["labels.txt", "labels_es.txt", "calibration.txt"])
        // The old zip is dropped: one local file header per file.
        #expect(twice.model.ranges(of: Data([0x50, 0x4B, 0x03, 0x04])).count == 3)
    }

    /// A model whose metadata names files its zip has lost (the zip cut off) is repaired by
    /// giving the files again; keeping them is still a clear error.
    @Test func lostFilesAreReplacedByNewOnes() throws {
        let once = try ModelMetadataWriter.write(model: Self.bareModel, metadata: Self.full).model
        let zipStart = try #require(once.firstRange(of: Data([0x50, 0x4B, 0x03, 0x04]))).lowerBound
        let lost = once.prefix(upTo: zipStart)
        expectTasksError(.notFoundError, containing: "No associated file with name: labels.txt") {
            try ModelMetadataWriter.write(model: lost, metadata: .init(name: "kept"))
        }
        let repaired = try ModelMetadataWriter.write(
            model: lost,
            metadata: .init(
                labels: [.init(fileName: "labels.txt", labels: Self.labels)], scoreCalibration: Self.full.scoreCalibration))
        #expect(
            repaired.replaced == [
                "labels: labels.txt, labels_es.txt (not readable from the model's zip) replaced by labels.txt (48 labels)",
                "score calibration: calibration.txt (not readable from the model's zip) replaced by calibration.txt",
            ])
        let file = try TFLiteModelFile(bytes: repaired.model)
        #expect(file.associatedFiles.names == ["labels.txt", "calibration.txt"])
        #expect(LabelFile.parse(try file.associatedFiles.contents(of: "labels.txt")) == Self.labels)
    }

    @Test func mergingKeepsWhatIsNotGivenAndReportsWhatIsReplaced() throws {
        let once = try ModelMetadataWriter.write(model: Self.bareModel, metadata: Self.full)
        let renamed = Self.labels.map { $0.uppercased() }
        let update = ImageClassifierMetadata(
            name: "Flowers 2", normalization: .init(mean: [0], std: [255]),
            labels: [.init(fileName: "names.txt", labels: renamed)])
        let result = try ModelMetadataWriter.write(model: once.model, metadata: update)
        #expect(
            result.replaced == [
                "name: 'Flowers' replaced by 'Flowers 2'",
                "normalization: mean [123.675, 116.28, 103.53], std [58.395, 57.12, 57.375] replaced by mean [0.0], std [255.0]",
                "labels: labels.txt (48 labels) replaced by names.txt (48 labels)",
            ])
        let file = try TFLiteModelFile(bytes: result.model)
        let metadata = try #require(file.metadata)
        #expect(metadata.version == "v2" && metadata.author == "Someone" && metadata.description == "Tells flowers apart.")
        let output = try #require(metadata.subgraphs.first?.outputTensors.first)
        #expect(output.scoreCalibration == ScoreCalibrationOptions(transformation: .log, defaultScore: 0.125))
        #expect(file.associatedFiles.names == ["names.txt", "labels_es.txt", "calibration.txt"])
        #expect(LabelFile.parse(try file.associatedFiles.contents(of: "names.txt")) == renamed)
    }

    /// Display names in a locale are added beside the category names (and replace only the
    /// file of their own locale).
    @Test func localizedLabelsKeepTheCategoryNames() throws {
        let once = try ModelMetadataWriter.write(model: Self.bareModel, metadata: Self.full)
        let french = Self.labels.map { "catégorie " + $0.dropFirst(9) }
        let spanish = Self.labels.map { "clase " + $0.dropFirst(9) }
        let update = ImageClassifierMetadata(labels: [
            .init(fileName: "labels_fr.txt", labels: french, locale: "fr"),
            .init(fileName: "clases.txt", labels: spanish, locale: "es"),
        ])
        let result = try ModelMetadataWriter.write(model: once.model, metadata: update)
        #expect(result.replaced == ["labels: labels_es.txt (48 labels, locale es) replaced by clases.txt (48 labels, locale es)"])
        let file = try TFLiteModelFile(bytes: result.model)
        #expect(file.associatedFiles.names == ["labels.txt", "clases.txt", "labels_fr.txt", "calibration.txt"])
        #expect(LabelFile.parse(try file.associatedFiles.contents(of: "labels.txt")) == Self.labels)
        #expect(LabelFile.parse(try file.associatedFiles.contents(of: "labels_fr.txt")) == french)
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let id: String
        let metadata: ImageClassifierMetadata
        let message: String
        var testDescription: String { id }
    }

    static let labelCases: [ErrorCase] = [
        ErrorCase(
            id: "label count", metadata: .init(labels: [.init(fileName: "l.txt", labels: ["a", "b"])]),
            message: "Labels file l.txt has 2 labels, but output tensor 'scores' [1, 48] has 48 categories."),
        ErrorCase(
            id: "line break", metadata: .init(labels: [.init(fileName: "l.txt", labels: ["a\nb"] + labels.dropFirst())]),
            message: "Label 0 of l.txt contains a line break; each label is one line."),
        ErrorCase(
            id: "same file twice",
            metadata: .init(labels: [
                .init(fileName: "l.txt", labels: labels), .init(fileName: "l.txt", labels: labels, locale: "fr"),
            ]),
            message: "Two associated files are named l.txt; each file in the model's zip needs its own name."),
        ErrorCase(
            id: "same locale twice",
            metadata: .init(labels: [
                .init(fileName: "l.txt", labels: labels), .init(fileName: "es1.txt", labels: labels, locale: "es"),
                .init(fileName: "es2.txt", labels: labels, locale: "es"),
            ]),
            message: "Labels files es1.txt and es2.txt both have locale 'es'; give one labels file per locale."),
        ErrorCase(
            id: "two default labels files",
            metadata: .init(labels: [.init(fileName: "a.txt", labels: labels), .init(fileName: "b.txt", labels: labels)]),
            message:
                "Labels files a.txt and b.txt both have no locale (the default labels); give one labels file per locale."),
        ErrorCase(
            id: "path as name", metadata: .init(labels: [.init(fileName: "a/l.txt", labels: labels)]),
            message: "Associated file name 'a/l.txt' must be a plain file name, such as labels.txt."),
        ErrorCase(
            id: "empty locale", metadata: .init(labels: [.init(fileName: "l.txt", labels: labels, locale: "")]),
            message: "The locale of l.txt is ''; give a code such as \"en\" or \"es\"."),
    ]

    static let valueCases: [ErrorCase] = [
        ErrorCase(
            id: "two means", metadata: .init(normalization: .init(mean: [1, 2], std: [1, 2])),
            message:
                "Normalization needs 1 or 3 mean values and as many std values (one per channel, R, G, B), got 2 mean and 2 std values."
        ),
        ErrorCase(
            id: "zero std", metadata: .init(normalization: .init(mean: [1, 2, 3], std: [1, 0, 1])),
            message: "Normalization std values must not be 0, got [1.0, 0.0, 1.0]."),
        ErrorCase(
            id: "infinite mean", metadata: .init(normalization: .init(mean: [.infinity], std: [1])),
            message: "Normalization values must be finite numbers, got mean [inf] and std [1.0]."),
        ErrorCase(
            id: "overflowing normalization", metadata: .init(normalization: .init(mean: [1e35], std: [1e-5])),
            message: "Normalization mean [1e+35] and std [1e-05] map pixel values 0...255 outside the range of 32-bit floats."),
        ErrorCase(
            id: "calibration lines",
            metadata: .init(
                scoreCalibration: .init(fileName: "c.txt", contents: Data("1,1,0\n".utf8), transformation: .identity)),
            message:
                "Score calibration file c.txt has 2 lines (a final newline counts as an empty line), but the output has 48 categories; MediaPipe needs one line per category."
        ),
        ErrorCase(
            id: "calibration value",
            metadata: .init(scoreCalibration: .init(fileName: "c.txt", contents: Data("1,x,0".utf8), transformation: .identity)),
            message:
                "Score calibration file c.txt: Could not parse score calibration parameter as float: x. (score calibration file line 1)"
        ),
        ErrorCase(
            id: "text over 1 MiB", metadata: .init(description: String(repeating: "d", count: (1 << 20) + 1)),
            message: "The description is 1048577 bytes; at most 1048576 bytes (1 MiB) are accepted."),
    ]

    @Test("refused metadata", arguments: labelCases + valueCases)
    func refused(errorCase: ErrorCase) {
        expectTasksError(.invalidArgumentError, containing: errorCase.message) {
            try ModelMetadataWriter.write(model: Self.bareModel, metadata: errorCase.metadata)
        }
    }

    @Test func oversizedLabelsFileIsRefused() {
        // 48 labels of 1.5 MiB: 72 MiB, over the 64 MiB limit of an associated file.
        let long = String(repeating: "x", count: 3 << 19)
        let metadata = ImageClassifierMetadata(labels: [.init(fileName: "big.txt", labels: Array(repeating: long, count: 48))])
        expectTasksError(.invalidArgumentError, containing: "Labels file big.txt is 75497520 bytes; at most 64 MiB are accepted.")
        {
            try ModelMetadataWriter.write(model: Self.bareModel, metadata: metadata)
        }
    }

    @Test func modelsItCannotWrite() {
        expectTasksError(
            .invalidArgumentError,
            containing: "one subgraph, one input and one output; this model has 1 subgraphs, 1 inputs and 2 outputs"
        ) {
            try ModelMetadataWriter.write(model: Data(ReshapeModel.bytes(outputShapes: [[1, 24], [1, 24]])), metadata: .init())
        }
        expectTasksError(
            .invalidArgumentError,
            containing: "The file is not a TFLite model: its file identifier (bytes 4-7) is 07 07 07 07, not \"TFL3\"."
        ) {
            try ModelMetadataWriter.write(model: Data(repeating: 7, count: 64), metadata: .init())
        }
    }

    @Test func fileErrorsNameTheFiles() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.tflite").path
        try Self.bareModel.write(to: URL(fileURLWithPath: input))
        let badLabels = ImageClassifierMetadata(labels: [.init(fileName: "l.txt", labels: ["a"])])
        let error = expectTasksError(.invalidArgumentError, containing: "Labels file l.txt has 1 labels") {
            try ModelMetadataWriter.write(
                modelAt: input, to: folder.appendingPathComponent("out.tflite").path, metadata: badLabels)
        }
        #expect(error?.subject == .file(input))
        let unwritable = folder.appendingPathComponent("missing/out.tflite").path
        let writeError = expectTasksError(.notFoundError, containing: "The model file cannot be written") {
            try ModelMetadataWriter.write(modelAt: input, to: unwritable, metadata: Self.full)
        }
        #expect(writeError?.subject == .file(unwritable))
        #expect(
            writeError?.message.hasSuffix("its folder \(folder.appendingPathComponent("missing").path) does not exist.") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.tflite").path))
        let folderError = expectTasksError(
            .invalidArgumentError,
            containing: "The model file cannot be written: this is a folder; give the path of the file to write."
        ) {
            try ModelMetadataWriter.write(modelAt: input, to: folder.path, metadata: Self.full)
        }
        #expect(folderError?.subject == .file(folder.path))
    }
}

@Suite("Writer on the shared models", .enabled(if: TestData.isAvailable, "\(TestData.missingReason)"))
struct SharedModelWriterTests {
    @Test func floatModelWithoutNormalizationIsRefused() throws {
        let bare = try TestData.bytes("models/mobilenet_v1_0.25_224_1_default_1.tflite")
        expectTasksError(.invalidArgumentError, containing: "Input tensor 'input' is FLOAT32: give the normalization") {
            try ModelMetadataWriter.write(model: bare, metadata: .init(name: "x"))
        }
    }

    @Test func bareFloatModelGetsTheMetadataOfTheReferenceModel() throws {
        let reference = try loadModel("mobilenet_v1_0.25_224_1_metadata_1.tflite")
        let labels = LabelFile.parse(try reference.model.associatedFiles.contents(of: "labels.txt"))
        let bare = try TestData.bytes("models/mobilenet_v1_0.25_224_1_default_1.tflite")
        let written = try ModelMetadataWriter.write(
            model: bare,
            metadata: .init(
                normalization: .init(mean: [127.5], std: [127.5]), labels: [.init(fileName: "labels.txt", labels: labels)]))
        let file = try TFLiteModelFile(bytes: written.model)
        let input = try #require(file.metadata?.subgraphs.first?.inputTensors.first)
        let expected = try #require(reference.model.metadata?.subgraphs.first?.inputTensors.first)
        #expect(input.normalization == expected.normalization)
        #expect(input.imageProperties == expected.imageProperties)
        #expect(try file.associatedFiles.contents(of: "labels.txt") == reference.model.associatedFiles.contents(of: "labels.txt"))
        // The bare model's weights follow the new metadata unchanged.
        #expect(written.model.count - bare.count < 40_000)
    }
}

@Suite("Writer replacing the metadata of shared models", .enabled(if: TestData.isAvailable, "\(TestData.missingReason)"))
struct SharedModelReplacementTests {
    @Test func packedFilesTheMetadataDoesNotNameAreReportedDropped() throws {
        // Its zip holds labels.txt, which no tensor metadata names.
        let model = try TestData.bytes("models/mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite")
        let result = try ModelMetadataWriter.write(model: model, metadata: .init(version: "v1"))
        #expect(result.replaced == ["associated file labels.txt: dropped (the new metadata does not name it)"])
        let file = try TFLiteModelFile(bytes: result.model)
        #expect(file.metadata?.name == "MobileNetV1 image classifier (quantized)")
        #expect(file.associatedFiles.names.isEmpty && !file.associatedFiles.hasArchive)
    }

    @Test func calibrationIsKeptUnlessReplaced() throws {
        let model = try TestData.bytes("models/generated/mobilenet_v1_0.25_224_quant_calibrated.tflite")
        let kept = try ModelMetadataWriter.write(model: model, metadata: .init(author: "me"))
        #expect(kept.replaced.isEmpty)
        let file = try TFLiteModelFile(bytes: kept.model)
        let original = try TFLiteModelFile(bytes: model)
        #expect(
            try file.associatedFiles.contents(of: "score_calibration.txt")
                == original.associatedFiles.contents(of: "score_calibration.txt"))
        let calibration = ImageClassifierMetadata.ScoreCalibration(
            fileName: "identity.txt", contents: Data(Array(repeating: "1,1,0", count: 1001).joined(separator: "\n").utf8),
            transformation: .identity)
        let replaced = try ModelMetadataWriter.write(model: model, metadata: .init(scoreCalibration: calibration))
        #expect(
            replaced.replaced == [
                "score calibration: score_calibration.txt (INVERSE_LOGISTIC, default score 0.05) replaced by identity.txt (IDENTITY, default score 0.0)"
            ])
        #expect(try TFLiteModelFile(bytes: replaced.model).associatedFiles.names == ["labels.txt", "identity.txt"])
    }
}
