import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// One case of `expected/mediapipe_generated_models.json`: top 5 with the given options.
private struct GeneratedCase: Decodable {
    let model: String
    let options: Options
    let image: String
    let categories: [ExpectedCategory]

    struct Options: Decodable {
        let displayNamesLocale: String?
        let scoreThreshold: Float?
        enum CodingKeys: String, CodingKey {
            case displayNamesLocale = "display_names_locale", scoreThreshold = "score_threshold"
        }
    }
}

/// Localized display names, score calibration and metadata added to a bare model, against
/// MediaPipe on the models in `models/generated`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct GeneratedModelsGoldenTests {
    private static let cases =
        TestData.isAvailable
        ? try? VisionTasksTests.reference("mediapipe_generated_models.json", as: [GeneratedCase].self) : nil

    private static let samePixels = try? samePixelsReference("generated", as: [GeneratedCase].self)

    static var models: [String] { Set((cases ?? []).map(\.model)).sorted() }

    @Test func everyGeneratedModelIsCovered() {
        #expect(Self.models.count == 3)
    }

    @Test(arguments: models)
    func matchesMediaPipeOnSamePixels(model: String) throws {
        let cases = (Self.samePixels ?? []).filter { $0.model == model }
        #expect(cases.count == (Self.cases ?? []).filter { $0.model == model }.count)
        try compare(cases) { _ in samePixelsTolerance }
    }

    @Test(arguments: models)
    func matchesMediaPipeDecodingFiles(model: String) throws {
        // Calibration stretches a quantization step of the raw score; 0.01 per step covers it.
        try compare((Self.cases ?? []).filter { $0.model == model }) { image in
            try fileDecodingTolerance(model: "generated/\(model)", image: image) * (model.contains("calibrated") ? 2.56 : 1)
        }
    }

    private func compare(_ cases: [GeneratedCase], tolerance: (String) throws -> Float) throws {
        for item in cases {
            let model = item.model
            let classifier = try fullClassifier("generated/\(model)") { options in
                // No locale in the reference run: MediaPipe's default, which must be ours too.
                if let locale = item.options.displayNamesLocale { options.displayNamesLocale = locale }
                options.scoreThreshold = item.options.scoreThreshold ?? 0
            }
            let result = try classifier.classify(image: try MPImage(contentsOf: TestData.image(item.image)))
            let categories = result.classificationResult.classifications[0].categories
            let context =
                "\(model) \(item.image) locale \(item.options.displayNamesLocale ?? "-") threshold \(item.options.scoreThreshold ?? 0)"
            let tolerance = try tolerance(item.image)
            expectMatchesReference(categories, item.categories, tolerance: tolerance, context)
            if item.categories.count < 5 {
                #expect(
                    categories.count == item.categories.count, "\(context): the threshold keeps exactly MediaPipe's categories")
            }
        }
    }
}
