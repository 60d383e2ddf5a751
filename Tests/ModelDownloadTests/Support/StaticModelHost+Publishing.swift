import FileSystem
import Foundation
import ModelCache
import ModelDownloads
import TestSupport

extension StaticModelHost {
    /// Publishes `index.json` listing `entries` (name -> file in the served folder, version, kind),
    /// with each file's real size and SHA-256 unless `sha256` overrides it.
    func publish(_ entries: [String: (file: String, version: Int, kind: ModelIndex.Kind)], sha256: String? = nil) throws {
        var models: [String: ModelIndex.Entry] = [:]
        for (name, entry) in entries {
            let url = root.appendingPathComponent(entry.file)
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
            let digest = try sha256 ?? SHA256Hasher.hexDigest(ofFileAt: url)
            models[name] = ModelIndex.Entry(
                file: entry.file, version: entry.version, sha256: digest, size: size, kind: entry.kind)
        }
        try ModelIndex(models: models).jsonData().write(to: root.appendingPathComponent(ModelIndex.fileName))
    }

    /// The size in bytes of `file` in the served folder.
    func fileSize(_ file: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(file).path)
        return (attributes[.size] as? NSNumber)?.intValue ?? -1
    }

    /// The entries of an AutoML export of the shared flowers model, with `labels` in dict.txt.
    static func automlEntries(labels: [String] = AutoMLBundle.labels, model: URL = AutoMLBundle.model) -> [[String: Any]] {
        [
            [
                "name": "manifest.json",
                "text": #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#,
            ],
            ["name": "dict.txt", "text": labels.joined(separator: "\n") + "\n"],
            ["name": "model.tflite", "file": model.path],
        ]
    }
}

/// The shared AutoML flowers model and its labels.
enum AutoMLBundle {
    static let labels = ["daisy", "dandelion", "roses", "sunflowers", "tulips"]
    static var model: URL { TestData.model("automl_labeler_model.tflite") }
}
