import Foundation
import ImageLabeling
import TestSupport
import Testing

/// A broken AutoML export is a typed error naming the file at fault, both from
/// `ImageLabeler(options:)` and, as in ML Kit, from every use of `imageLabeler(options:)`'s labeler.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ManifestErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var manifest = #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#
        var labels = ["daisy", "dandelion", "roses", "sunflowers", "tulips"]
        var model = "automl_labeler_model.tflite"
        let code: TasksErrorCode
        /// What the message must contain after the export folder's path is replaced by "<export>".
        let message: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "not JSON", manifest: "modelFile: model.tflite", code: .invalidArgumentError,
            message: "<export>/manifest.json: the AutoML manifest is not valid JSON."),
        Case(
            name: "null", manifest: "null", code: .invalidArgumentError,
            message: "<export>/manifest.json: the AutoML manifest must be a JSON object with modelFile, labelsFile and modelType."
        ),
        Case(
            name: "not an object", manifest: #"["model.tflite"]"#, code: .invalidArgumentError,
            message: "<export>/manifest.json: the AutoML manifest must be a JSON object with modelFile, labelsFile and modelType."
        ),
        Case(
            name: "missing modelFile", manifest: #"{"labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
            code: .invalidArgumentError, message: #"<export>/manifest.json: the key "modelFile" is missing."#),
        Case(
            name: "missing modelType", manifest: #"{"modelFile": "model.tflite", "labelsFile": "dict.txt"}"#,
            code: .invalidArgumentError, message: #"<export>/manifest.json: the key "modelType" is missing."#),
        Case(
            name: "labelsFile not a string",
            manifest: #"{"modelFile": "model.tflite", "labelsFile": 3, "modelType": "IMAGE_LABELING"}"#,
            code: .invalidArgumentError, message: #"<export>/manifest.json: "labelsFile" must be a string, not 3."#),
        Case(
            name: "unknown model type",
            manifest: #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "OBJECT_DETECTION"}"#,
            code: .invalidArgumentError,
            message: #"<export>/manifest.json: modelType is "OBJECT_DETECTION"; an image labeler needs "IMAGE_LABELING"."#),
        Case(
            name: "model file missing",
            manifest: #"{"modelFile": "other.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
            code: .notFoundError,
            message: #"<export>/manifest.json: "modelFile" names <export>/other.tflite, which does not exist or is not a file."#),
        Case(
            name: "labels file missing",
            manifest: #"{"modelFile": "model.tflite", "labelsFile": "labels.txt", "modelType": "IMAGE_LABELING"}"#,
            code: .notFoundError,
            message: #"<export>/manifest.json: "labelsFile" names <export>/labels.txt, which does not exist or is not a file."#),
        Case(
            name: "directory traversal",
            manifest: #"{"modelFile": "../../etc/passwd", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
            code: .invalidArgumentError,
            message:
                #"<export>/manifest.json: "modelFile" is "../../etc/passwd"; it must be a path inside the manifest's folder."#),
        Case(
            name: "absolute path",
            manifest: #"{"modelFile": "/etc/passwd", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
            code: .invalidArgumentError,
            message: #"<export>/manifest.json: "modelFile" is "/etc/passwd"; it must be a path inside the manifest's folder."#),
        Case(
            name: "too few labels", labels: ["daisy", "dandelion", "roses", "sunflowers"], code: .invalidArgumentError,
            message: "<export>/dict.txt: The labels file has 4 labels, but the model's output has 5 categories."),
        Case(
            name: "not an image classifier", model: "mobilenet_v1_0.25_224_1_default_1.tflite", code: .notFoundError,
            message:
                "<export>/model.tflite: Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess input images."
                + addNormalizationHint
        ),
    ]

    @Test(arguments: cases)
    func brokenExport(_ item: Case) throws {
        let export = try AutoMLExport(manifest: item.manifest, labels: item.labels, model: item.model)
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        let error = #expect(throws: TasksError.self) { try ImageLabeler(options: options) }
        #expect(error?.code == item.code)
        #expect(error?.message.replacingOccurrences(of: export.folder.path, with: "<export>") == item.message)

        // ML Kit's factory cannot fail: the same error comes from each use.
        let labeler = ImageLabeler.imageLabeler(options: options)
        let image = try VisionImage(contentsOf: TestData.image("burger.jpg"))
        let later = #expect(throws: TasksError.self) { try labeler.results(in: image) }
        #expect(later == error)
    }

    @Test func missingManifest() throws {
        let options = AutoMLImageLabelerOptions(
            localModel: AutoMLImageLabelerLocalModel(manifestPath: "/nonexistent/manifest.json"))
        let error = #expect(throws: TasksError.self) { try ImageLabeler(options: options) }
        #expect(error?.code == .notFoundError)
        #expect(error?.message == "/nonexistent/manifest.json: The AutoML manifest was not found (no such file or folder).")
        #expect(error?.subject == .file("/nonexistent/manifest.json"))
    }

    @Test(arguments: [-0.1, 1.5, Double.nan])
    func thresholdOutsideZeroOneIsRejected(threshold: Double) throws {
        let export = try AutoMLExport()
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.confidenceThreshold = NSNumber(value: threshold)
        let error = #expect(throws: TasksError.self) { try ImageLabeler(options: options) }
        #expect(error?.message.hasPrefix("confidenceThreshold must be in [0, 1]") == true)
    }

    @Test func maxResultCountBelowOneIsRejected() throws {
        let export = try AutoMLExport()
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.maxResultCount = 0
        let error = #expect(throws: TasksError.self) { try ImageLabeler(options: options) }
        #expect(error?.message == "maxResultCount must be at least 1, got 0.")
    }
}

/// A symbolic link inside the export must not lead the model path out of the folder.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ManifestSymlinkTests {
    @Test func symlinkOutOfTheFolderIsRejected() throws {
        let outside = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.copyItem(
            at: TestData.model("automl_labeler_model.tflite"), to: outside.appendingPathComponent("model.tflite"))
        let export = try AutoMLExport(
            manifest: #"{"modelFile": "elsewhere/model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#)
        try FileManager.default.createSymbolicLink(
            at: export.folder.appendingPathComponent("elsewhere"), withDestinationURL: outside)
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        let error = #expect(throws: TasksError.self) { try ImageLabeler(options: options) }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message.hasSuffix(
                #""modelFile" (elsewhere/model.tflite) leads outside the manifest's folder through a symbolic link."#) == true)
    }
}
