import Foundation
import TestSupport
import Testing

/// Paths of the shared models and photos the CLI tests pass to `vision-tasks`, and MediaPipe's
/// answers for them from `testdata/expected`.
enum Fixture {
    static let quantModelName = "mobilenet_v1_0.25_224_quant.tflite"
    static let floatModelName = "mobilenet_v1_0.25_224_1_metadata_1.tflite"
    static let quantModel = TestData.model(quantModelName).path
    static let floatModel = TestData.model(floatModelName).path
    static let localizedModel = TestData.model("generated/mobilenet_v1_0.25_224_quant_localized.tflite").path
    static let unlabeledModel = TestData.model("mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite").path
    /// The float model without normalization metadata, which MediaPipe refuses.
    static let refusedModelName = "mobilenet_v1_0.25_224_1_default_1.tflite"
    static let refusedModel = TestData.model(refusedModelName).path

    static let burger = image("burger.jpg")
    static let burgerPNG = image("burger-224.png")
    static let burgerCrop = image("burger_crop.jpg")
    static let burgerRotated = image("burger_rotation180.jpg")
    static let sparrowPNG = image("sparrow.png")
    static let multiObjects = image("multi_objects.jpg")

    static func image(_ name: String) -> String { TestData.image(name).path }

    /// Score tolerance against MediaPipe decoding a JPEG itself (testdata README; the reasons are
    /// in `Tests/VisionTasksTests/GoldenComparison.swift`): MediaPipe decodes with stb_image, we
    /// with libjpeg-turbo, which moves the quantized model by up to 10 output steps of 1/256 and
    /// the float model by up to 0.02.
    static func jpegTolerance(model: String) -> Float { model.contains("quant") ? 10.0 / 256 : 0.02 }

    /// `expected/mediapipe_image_mode.json`: `{model: {image: [head]}}` or `{model: {"error": text}}`.
    private struct ImageModeHead: Decodable {
        let categories: [ExpectedCategory]
    }

    /// MediaPipe's categories (top 10, image mode, default options) for a shared model and photo.
    static func mediaPipeCategories(
        model: String, image: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [ExpectedCategory] {
        let object = try JSONSerialization.jsonObject(with: try TestData.bytes("expected/mediapipe_image_mode.json"))
        let entry = try #require(
            (object as? [String: Any])?[model] as? [String: Any],
            "no \(model) in mediapipe_image_mode.json", sourceLocation: sourceLocation)
        let heads = try #require(
            entry[image], "no \(model) / \(image) in mediapipe_image_mode.json",
            sourceLocation: sourceLocation)
        let data = try JSONSerialization.data(withJSONObject: heads)
        return try #require(
            try JSONDecoder().decode([ImageModeHead].self, from: data).first,
            sourceLocation: sourceLocation
        ).categories
    }

    /// MediaPipe's error text for a model it refuses, from `expected/mediapipe_image_mode.json`.
    static func mediaPipeError(model: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let object = try JSONSerialization.jsonObject(with: try TestData.bytes("expected/mediapipe_image_mode.json"))
        let entry = (object as? [String: Any])?[model] as? [String: Any]
        return try #require(
            entry?["error"] as? String, "no error for \(model) in mediapipe_image_mode.json",
            sourceLocation: sourceLocation)
    }

    /// The category index MediaPipe ranks first for a shared model and photo.
    static func mediaPipeTop(model: String, image: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try #require(
            try mediaPipeCategories(model: model, image: image, sourceLocation: sourceLocation).first,
            sourceLocation: sourceLocation
        ).index
    }
}
