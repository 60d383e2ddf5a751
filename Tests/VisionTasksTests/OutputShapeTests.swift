import Foundation
import TestSupport
import Testing
import VisionTasks

/// Output shapes: every dimension but the last equal to 1 (`[N]`, `[1, N]`, `[1, 1, N]`,
/// `[1, 1, 1, N]`) gives MediaPipe's scores; other shapes are refused. MediaPipe 1.2.3 reads any
/// output as a flat list (a `[2, 24]` batch becomes 48 "categories"), so there the reference only
/// shows what it would have done. The expected values are MediaPipe's, from
/// `Tests/Reference/make_reshape_reference.py` on the models `ReshapeModel` builds (written out
/// with `SVT_WRITE_RESHAPE_MODELS=DIR swift test --filter OutputShapeTests`).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct OutputShapeTests {
    struct Reference: Decodable {
        struct Outcome: Decodable {
            /// The model MediaPipe was run on, in base64.
            let model: String
            let error: String?
            /// Score by category index (max_results -1, threshold 0: every category).
            let scores: [Int: Float]?
        }
        let image: String
        let models: [String: Outcome]
    }

    static let reference: Reference? = {
        let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/mediapipe_reshape_outputs.json")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Reference.self, from: $0) }
    }()

    @Test(arguments: ReshapeModel.shapes.map(\.name))
    func matchesMediaPipe(_ name: String) throws {
        let reference = try #require(Self.reference, "Tests/Reference/mediapipe_reshape_outputs.json")
        let expected = try #require(reference.models[name])
        let shape = try #require(ReshapeModel.shapes.first { $0.name == name }?.shape)
        let bytes = ReshapeModel.bytes(outputShape: shape)
        #expect(Data(bytes).base64EncodedString() == expected.model, "the model is the one MediaPipe was run on")

        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = Data(bytes)
        let image = try MPImage(contentsOf: TestData.image(reference.image))
        let scores = try #require(expected.scores, "MediaPipe accepts every shape: \(expected.error ?? "")")
        guard shape.dropLast().allSatisfy({ $0 == 1 }) else {
            let error = #expect(throws: TasksError.self) { try ImageClassifier(options: options) }
            #expect(error?.code == .invalidArgumentError)
            #expect(
                error?.reason == "Output tensor 0 scores (UINT8 \(shape)) has an unsupported shape: expected [N], [1, N], "
                    + "[1, 1, N] or [1, 1, 1, N] (every dimension but the last equal to 1).")
            return
        }
        let result = try ImageClassifier(options: options).classify(image: image)
        let categories = try #require(result.classificationResult.classifications.first?.categories)
        #expect(categories.count == scores.count)
        for category in categories {
            #expect(category.score == scores[category.index], "category \(category.index)")
        }
    }

    /// Every head is classified, in output order, each with its own index.
    @Test func twoHeadsGiveTwoClassifications() throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = Data(ReshapeModel.bytes(outputShapes: [[1, 48], [48]]))
        options.maxResults = 3
        let pixels = Data((0..<48).map { UInt8($0 * 5) })  // the model's 4x4 input: score i is byte i / 256
        let image = try MPImage(pixels: pixels, width: 4, height: 4, format: .rgb8)
        let heads = try ImageClassifier(options: options).classify(image: image).classificationResult.classifications
        #expect(heads.map(\.headIndex) == [0, 1])
        for head in heads {
            #expect(head.categories.map(\.index) == [47, 46, 45])
            #expect(head.categories.map(\.score) == [235, 230, 225].map { Float($0) / 256 })
        }
    }

    /// A model without outputs would classify every image as nothing: refused at creation.
    @Test func noOutputIsRefused() {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = Data(ReshapeModel.bytes(outputShapes: []))
        let error = #expect(throws: TasksError.self) { try ImageClassifier(options: options) }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.message == "The model has no output tensor; an image classifier needs at least one.")
    }

    /// A NaN score (here from an output scale patched to NaN) is an error naming the head and the
    /// category, where MediaPipe drops it silently; +inf stays a score (it sorts first).
    @Test func nanScoreIsAnError() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var patcher = ModelPatcher(try TestData.bytes("models/mobilenet_v2_1.0_224_quant.tflite"))
        patcher.setScale(.nan, of: .output)
        let path = folder.appendingPathComponent("nan.tflite").path
        try patcher.data.write(to: URL(fileURLWithPath: path))
        let classifier = try ImageClassifier(modelPath: path)
        let error = #expect(throws: TasksError.self) {
            try classifier.classify(image: MPImage(contentsOf: TestData.image("burger.jpg")))
        }
        #expect(error?.code == .outOfRangeError)
        #expect(error?.subject == .file(path))
        #expect(
            error?.reason == "Output tensor 0 gives a NaN score for category 0: the model's output "
                + "(after dequantization and calibration) is not a number.")
    }

    /// Writes the models for the reference script when `SVT_WRITE_RESHAPE_MODELS` names a folder.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["SVT_WRITE_RESHAPE_MODELS"] != nil,
            "opt in: SVT_WRITE_RESHAPE_MODELS=FOLDER writes the models for Tests/Reference/make_reshape_reference.py"))
    func writeModels() throws {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SVT_WRITE_RESHAPE_MODELS"]!)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, shape) in ReshapeModel.shapes {
            try Data(ReshapeModel.bytes(outputShape: shape)).write(to: folder.appendingPathComponent("\(name).tflite"))
        }
    }
}
