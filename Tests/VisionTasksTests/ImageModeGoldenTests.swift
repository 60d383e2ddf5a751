import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// `expected/mediapipe_image_mode.json`: `{model: {image: [head]}}` or `{model: {"error": text}}`.
private struct ImageModeReference: Decodable {
    let byModel: [String: [String: [Head]]]
    let errors: [String: String]

    struct Head: Decodable {
        let headIndex: Int
        let headName: String?
        let categories: [ExpectedCategory]
        enum CodingKeys: String, CodingKey {
            case headIndex = "head_index", headName = "head_name", categories
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let raw = try container.decode([String: RawEntry].self)
        byModel = raw.compactMapValues(\.images)
        errors = raw.compactMapValues(\.error)
    }

    private struct RawEntry: Decodable {
        let images: [String: [Head]]?
        let error: String?
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let error = try? container.decode([String: String].self)["error"] {
                self.error = error
                images = nil
            } else {
                images = try container.decode([String: [Head]].self)
                error = nil
            }
        }
    }
}

@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ImageModeGoldenTests {
    private static let reference =
        TestData.isAvailable
        ? try? VisionTasksTests.reference("mediapipe_image_mode.json", as: ImageModeReference.self) : nil
    private static let samePixels = try? samePixelsReference("image_mode", as: ImageModeReference.self)

    static var models: [String] { (reference?.byModel.keys).map { $0.sorted() } ?? [] }

    @Test func referenceFilesLoad() throws {
        let reference = try #require(Self.reference)
        #expect(reference.byModel.count == 5)
        #expect(reference.errors.count == 1)
        let samePixels = try #require(Self.samePixels)
        #expect(samePixels.byModel.keys.sorted() == reference.byModel.keys.sorted())
        #expect(samePixels.errors == reference.errors)
    }

    /// Every model and image, on the pixels our decoder produces: MediaPipe's answer to float rounding.
    @Test(arguments: models)
    func matchesMediaPipeOnSamePixels(model: String) throws {
        let images = try #require(Self.samePixels?.byModel[model])
        try compare(model: model, images: images) { _ in samePixelsTolerance }
    }

    /// Every model and image of the shared reference, where MediaPipe decoded the files itself.
    @Test(arguments: models)
    func matchesMediaPipeDecodingFiles(model: String) throws {
        let images = try #require(Self.reference?.byModel[model])
        try compare(model: model, images: images) { image in try fileDecodingTolerance(model: model, image: image) }
    }

    private func compare(
        model: String, images: [String: [ImageModeReference.Head]],
        tolerance: (String) throws -> Float
    ) throws {
        let classifier = try fullClassifier(model)
        for (image, heads) in images.sorted(by: { $0.key < $1.key }) {
            let tolerance = try tolerance(image)
            let result = try classifier.classify(image: try MPImage(contentsOf: TestData.image(image)))
            let ours = result.classificationResult.classifications
            try #require(ours.count == heads.count, "\(model) \(image): head count")
            for (head, expected) in zip(ours, heads) {
                #expect(head.headIndex == expected.headIndex)
                #expect(head.headName == (expected.headName ?? ""), "iOS reports a missing head name as \"\"")
                expectMatchesReference(head.categories, expected.categories, tolerance: tolerance, "\(model) \(image)")
            }
        }
    }

    /// The float model without metadata: MediaPipe refuses it, and so do we, with its message.
    @Test func refusedModelGivesMediaPipesError() throws {
        let reference = try #require(Self.reference)
        for (model, message) in reference.errors {
            let error = #expect(throws: TasksError.self) { try fullClassifier(model) }
            #expect(error?.code == .notFoundError)
            #expect(error?.reason == message + addNormalizationHint)
            #expect(error?.subject == .file(TestData.model(model).path))
        }
    }

    /// The acceptance check, with MediaPipe's default options (max results 1).
    @Test func quantizedBurgerIsCheeseburger() throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
        options.maxResults = 1
        let result = try ImageClassifier(options: options).classify(image: try MPImage(contentsOf: TestData.image("burger.jpg")))
        let top = try #require(result.classificationResult.classifications.first?.categories.first)
        #expect(result.classificationResult.classifications[0].categories.count == 1)
        #expect(top.index == 934)
        #expect(top.categoryName == "cheeseburger")
        #expect(abs(top.score - 0.97265625) <= 1.0 / 256)
    }
}
