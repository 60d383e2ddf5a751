import Foundation
import TestSupport

/// An AutoML Vision Edge export folder built in a temporary directory from the shared flowers
/// model: `model.tflite`, `dict.txt` (daisy, dandelion, roses, sunflowers, tulips) and
/// `manifest.json`. Removed when the value is released by the test.
final class AutoMLExport {
    static let labels = ["daisy", "dandelion", "roses", "sunflowers", "tulips"]

    let folder: URL
    var manifestPath: String { folder.appendingPathComponent("manifest.json").path }

    /// - Parameters:
    ///   - manifest: the manifest's JSON text (default: the standard one).
    ///   - labels: the lines of dict.txt.
    init(
        manifest: String = #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
        labels: [String] = AutoMLExport.labels, model: String = "automl_labeler_model.tflite"
    ) throws {
        folder = try TestData.temporaryDirectory()
        try FileManager.default.copyItem(at: TestData.model(model), to: folder.appendingPathComponent("model.tflite"))
        try Data((labels.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("dict.txt"))
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
