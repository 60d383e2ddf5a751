import Foundation
import TestSupport
import Testing

/// An AutoML Vision Edge export made at test time in a temporary folder from the shared flowers
/// model: `model.tflite` (a copy of `models/automl_labeler_model.tflite`), `dict.txt` and
/// `manifest.json`. Nothing is written inside the package. The folder is removed when the value
/// is released.
final class AutoMLExportFolder {
    /// The flowers model's labels, in output order.
    static let flowers = ["daisy", "dandelion", "roses", "sunflowers", "tulips"]
    /// The manifest README documents.
    static let standardManifest = #"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#

    let folder: URL
    var manifestPath: String { folder.appendingPathComponent("manifest.json").path }
    var labelsPath: String { folder.appendingPathComponent("dict.txt").path }
    var modelPath: String { folder.appendingPathComponent("model.tflite").path }

    /// - Parameters:
    ///   - manifest: the text of manifest.json; nil writes none.
    ///   - labels: the lines of dict.txt.
    init(manifest: String? = AutoMLExportFolder.standardManifest, labels: [String] = AutoMLExportFolder.flowers) throws {
        folder = try TestData.temporaryDirectory()
        try FileManager.default.copyItem(
            at: TestData.model("automl_labeler_model.tflite"),
            to: folder.appendingPathComponent("model.tflite"))
        try Data((labels.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("dict.txt"))
        if let manifest {
            try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

/// MediaPipe's answers for the flowers model and the quantized MobileNet on the same decoded
/// pixels our decoder produces (`Tests/Reference/mediapipe_decoded_pixels.json`, "image_mode"):
/// every category of the flowers model for every shared image, so the only difference allowed
/// is one quantization step (1/256).
enum LabelReference {
    static let automlModel = "automl_labeler_model.tflite"
    /// One output step of the quantized models.
    static let step: Float = 1.0 / 256
    /// The shared photos the reference holds.
    static let images = [
        "burger-224.png", "burger.jpg", "burger_crop.jpg", "burger_rotation180.jpg", "cat.jpg", "cats_and_dogs.jpg",
        "cats_and_dogs_rotation180.jpg", "dogs.jpg", "grace_hopper.jpg", "multi_objects.jpg", "sparrow.jpg", "sparrow.png",
    ]

    /// MediaPipe's categories (best first; its order among equal scores is unspecified).
    static func categories(
        model: String = automlModel, image: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [ExpectedCategory] {
        let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/mediapipe_decoded_pixels.json")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let entry = (root?["image_mode"] as? [String: Any])?[model] as? [String: Any]
        let heads = try #require(
            entry?[image] as? [[String: Any]], "no \(model) / \(image) in mediapipe_decoded_pixels.json",
            sourceLocation: sourceLocation)
        let head = try #require(heads.first, sourceLocation: sourceLocation)
        let data = try JSONSerialization.data(withJSONObject: head["categories"] ?? [])
        return try JSONDecoder().decode([ExpectedCategory].self, from: data)
    }
}

extension VisionTasksTool.Run {
    /// The labels of `--format json` output for exactly one image, which must have succeeded.
    func singleImageLabels(sourceLocation: SourceLocation = #_sourceLocation) throws -> [ImageOutcome.Label] {
        let outcomes = try jsonOutcomes(sourceLocation: sourceLocation)
        try #require(outcomes.count == 1, "\(self)", sourceLocation: sourceLocation)
        #expect(outcomes[0].error == nil, "\(self)", sourceLocation: sourceLocation)
        return try #require(outcomes[0].labels, "no labels key:\n\(self)", sourceLocation: sourceLocation)
    }
}

/// Whether labels are ordered as the labeler promises: highest confidence first, equal
/// confidences by index.
func isLabelOrder(_ labels: [ImageOutcome.Label]) -> Bool {
    zip(labels, labels.dropFirst()).allSatisfy {
        $0.confidence > $1.confidence || ($0.confidence == $1.confidence && $0.index < $1.index)
    }
}
