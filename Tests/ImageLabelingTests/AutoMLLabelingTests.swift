import Foundation
import TestSupport
import Testing

@testable import ImageLabeling

/// MediaPipe's categories for one image, from `Tests/Reference/mediapipe_decoded_pixels.json`.
private struct ReferenceCategory: Decodable {
    let index: Int
    let score: Float
    // The reference file's key, as the Python script writes it.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    let category_name: String?
}

private func reference(image: String) throws -> [ReferenceCategory] {
    let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/mediapipe_decoded_pixels.json")
    let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    let model = (root?["image_mode"] as? [String: Any])?["automl_labeler_model.tflite"] as? [String: Any]
    let heads = try #require(model?[image] as? [[String: Any]])
    let categories = try JSONSerialization.data(withJSONObject: heads[0]["categories"] ?? [])
    return try JSONDecoder().decode([ReferenceCategory].self, from: categories)
}

@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct AutoMLLabelingTests {
    static let images = ["burger.jpg", "sparrow.jpg", "dogs.jpg", "cat.jpg", "grace_hopper.jpg", "sparrow.png"]

    func labeler(_ export: AutoMLExport, threshold: NSNumber?) throws -> ImageLabeler {
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.confidenceThreshold = threshold
        return try ImageLabeler(options: options)
    }

    /// Labels and confidences match MediaPipe's answer for the model (same pixels, so within one
    /// quantization step), keeping exactly the categories at or above the threshold.
    @Test(arguments: [0.0, 0.3])
    func matchesMediaPipeAfterThreshold(threshold: Double) throws {
        let export = try AutoMLExport()
        let labeler = try labeler(export, threshold: NSNumber(value: threshold))
        for image in Self.images {
            let expected = try reference(image: image).filter { $0.score >= Float(threshold) }
            let labels = try labeler.results(in: VisionImage(contentsOf: TestData.image(image)))
            #expect(labels.map(\.index) == expected.map(\.index), "\(image)")
            #expect(labels.map(\.text) == expected.map { AutoMLExport.labels[$0.index] }, "\(image)")
            for (label, category) in zip(labels, expected) {
                #expect(abs(label.confidence - category.score) <= 1.0 / 256, "\(image) \(label.text)")
            }
        }
    }

    /// No threshold set: 0.5 for AutoML models.
    @Test func defaultThresholdIsOneHalf() throws {
        let export = try AutoMLExport()
        let labeler = try labeler(export, threshold: nil)
        for image in Self.images {
            let labels = try labeler.results(in: VisionImage(contentsOf: TestData.image(image)))
            let expected = try reference(image: image).filter { $0.score >= 0.5 }
            #expect(labels.map(\.index) == expected.map(\.index), "\(image)")
        }
    }

    /// dict.txt, not the model's own metadata, names the labels.
    @Test func labelsComeFromDictTxt() throws {
        let renamed = ["Bellis", "Taraxacum", "Rosa", "Helianthus", "Tulipa"]
        let export = try AutoMLExport(labels: renamed)
        let labels = try labeler(export, threshold: 0).results(in: VisionImage(contentsOf: TestData.image("sparrow.jpg")))
        #expect(labels.count == 5)
        #expect(labels.allSatisfy { $0.text == renamed[$0.index] })
        #expect(zip(labels, labels.dropFirst()).allSatisfy { $0.confidence >= $1.confidence })
    }

    @Test func maxResultCountLimitsTheLabels() throws {
        let export = try AutoMLExport()
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.confidenceThreshold = 0
        options.maxResultCount = 2
        let labels = try ImageLabeler(options: options).results(in: VisionImage(contentsOf: TestData.image("dogs.jpg")))
        #expect(labels.map(\.index) == Array(try reference(image: "dogs.jpg").prefix(2)).map(\.index))
    }

    /// A turned or mirrored picture, tagged with the orientation that makes it upright, labels
    /// like the upright picture (the front camera gives the mirrored values).
    @Test(arguments: ImageOrientation.allCases)
    func orientationIsApplied(orientation: ImageOrientation) throws {
        let export = try AutoMLExport()
        let labeler = try labeler(export, threshold: 0)
        let upright = try VisionImage(contentsOf: TestData.image("burger.jpg"))
        let stored = OrientedPixels(upright: upright.pixels, orientation: orientation)
        let image = try VisionImage(pixels: stored.bytes, width: stored.width, height: stored.height, format: .rgb8)
        image.orientation = orientation
        let expected = try labeler.results(in: upright)
        let labels = try labeler.results(in: image)
        #expect(labels.first?.index == expected.first?.index)
        #expect(abs((labels.first?.confidence ?? 0) - (expected.first?.confidence ?? 1)) <= 0.05)
    }
}

/// dict.txt written on Windows (CRLF), or with mixed line endings, gives the same labels.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LabelsFileLineEndingTests {
    @Test(arguments: [
        "daisy\r\ndandelion\r\nroses\r\nsunflowers\r\ntulips\r\n",
        "daisy\ndandelion\nroses\nsunflowers\ntulips\r\n",
        "daisy\r\ndandelion\nroses\rsunflowers\ntulips\n\r\n",
    ])
    func lineEndings(text: String) throws {
        let export = try AutoMLExport()
        try Data(text.utf8).write(to: export.folder.appendingPathComponent("dict.txt"))
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: export.manifestPath))
        options.confidenceThreshold = 0
        let labels = try ImageLabeler(options: options).results(in: VisionImage(contentsOf: TestData.image("burger.jpg")))
        #expect(labels.count == 5)
        #expect(labels.allSatisfy { $0.text == AutoMLExport.labels[$0.index] }, "\(labels)")
    }
}
