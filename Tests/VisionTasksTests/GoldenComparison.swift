import Foundation
import Testing
import TestSupport
@testable import ClassificationCore
@testable import VisionTasks

/// A category as the MediaPipe reference files record it.
struct ExpectedCategory: Decodable {
    let index: Int
    let score: Float
    let categoryName: String?
    let displayName: String?

    enum CodingKeys: String, CodingKey {
        case index, score
        case categoryName = "category_name"
        case displayName = "display_name"
    }
}

/// Compares our categories (all of them, unfiltered by max results) with MediaPipe's top list,
/// as `testdata/README.md` defines a faithful answer: every expected category is present with
/// a score within `tolerance` and the same names; wherever two neighbouring expected scores
/// differ by more than `tolerance`, our order agrees; and nothing we rank inside the expected
/// list's length scores clearly above its last score without being in it.
func expectMatchesReference(
    _ actual: [ResultCategory], _ expected: [ExpectedCategory], tolerance: Float, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let position = Dictionary(actual.enumerated().map { ($1.index, $0) }, uniquingKeysWith: { first, _ in first })
    for category in expected {
        guard let rank = position[category.index] else {
            Issue.record("\(context): category \(category.index) (\(category.categoryName ?? "-")) missing", sourceLocation: sourceLocation)
            continue
        }
        let ours = actual[rank]
        #expect(abs(ours.score - category.score) <= tolerance,
                "\(context): category \(category.index) score \(ours.score), MediaPipe \(category.score)", sourceLocation: sourceLocation)
        #expect(ours.categoryName == category.categoryName, "\(context): category \(category.index) name", sourceLocation: sourceLocation)
        #expect(ours.displayName == category.displayName, "\(context): category \(category.index) display name", sourceLocation: sourceLocation)
    }
    for (higher, lower) in zip(expected, expected.dropFirst()) where higher.score - lower.score > tolerance {
        if let a = position[higher.index], let b = position[lower.index] {
            #expect(a < b, "\(context): \(higher.index) should rank above \(lower.index)", sourceLocation: sourceLocation)
        }
    }
    let expectedIndices = Set(expected.map(\.index))
    if let floor = expected.last?.score {
        for extra in actual.prefix(expected.count) where !expectedIndices.contains(extra.index) {
            #expect(extra.score <= floor + tolerance,
                    "\(context): unexpected category \(extra.index) with score \(extra.score) above MediaPipe's list", sourceLocation: sourceLocation)
        }
    }
}

/// Loads a reference JSON file from `testdata/expected` (MediaPipe decoding the files itself).
func reference<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
    try JSONDecoder().decode(T.self, from: try TestData.bytes("expected/\(name)"))
}

/// Loads one section of `Tests/Reference/mediapipe_decoded_pixels.json`: MediaPipe's answers on
/// the pixels our decoder produces (made by `Tests/Reference/make_decoded_reference.py`).
func samePixelsReference<T: Decodable>(_ section: String, as type: T.Type) throws -> T {
    let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/mediapipe_decoded_pixels.json")
    let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any]
    let part = try JSONSerialization.data(withJSONObject: object?[section] ?? NSNull(), options: [.fragmentsAllowed])
    return try JSONDecoder().decode(T.self, from: part)
}

/// The tolerance on the same pixels: our pipeline is MediaPipe's, so only float rounding remains.
let samePixelsTolerance: Float = 1e-4

/// The tolerance against MediaPipe decoding a file itself. PNG decoding is exact, so the README's
/// tolerance applies. MediaPipe decodes JPEG with stb_image and we with libjpeg-turbo: pixels
/// differ by up to 3 levels, which moves the small quantized models by up to 9 quantization
/// steps (MediaPipe's own answers move as much when given libjpeg-turbo's pixels), so JPEGs
/// get 10 steps (quantized) or 0.02 (float).
func fileDecodingTolerance(model: String, image: String) throws -> Float {
    let base = try tolerance(for: model)
    guard image.hasSuffix(".jpg") else { return base }
    return base < 0.01 || model.contains("quant") ? 10 * base : 0.02
}

/// A classifier for a shared model with every category returned (max results -1) so that
/// comparisons see the full ranking.
func fullClassifier(_ model: String, configure: (ImageClassifierOptions) -> Void = { _ in }) throws -> ImageClassifier {
    let options = ImageClassifierOptions()
    options.baseOptions.modelAssetPath = TestData.model(model).path
    options.scoreThreshold = -Float.greatestFiniteMagnitude
    configure(options)
    return try ImageClassifier(options: options)
}

/// The score tolerance for a model: one output quantization step for quantized outputs, 0.01 for float ones.
func tolerance(for model: String) throws -> Float {
    let asset = try ModelAsset(path: TestData.model(model).path, buffer: nil)
    let engine = try ClassifierEngine(ClassifierConfiguration(asset: asset, threadCount: 1))
    return engine.heads[0].quantization?.scale ?? 0.01
}
