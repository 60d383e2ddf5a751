import Foundation
import TestSupport
import Testing

@testable import TaskRuntime
@testable import VisionTasks

extension ResultCategory: ScoredCategory {}

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
