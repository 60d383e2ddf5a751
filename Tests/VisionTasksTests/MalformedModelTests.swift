import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Truncated and corrupted models, and models whose zip of associated files is cut: each is a
/// typed error at creation (or, for damage that leaves a valid model, a working classifier),
/// never a crash.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct MalformedModelTests {
    static let models = [
        "mobilenet_v1_0.25_224_quant.tflite", "mobilenet_v1_0.25_224_1_metadata_1.tflite",
        "automl_labeler_model.tflite",
    ]

    func classifier(_ bytes: Data) throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = bytes
        return try ImageClassifier(options: options)
    }

    @Test(arguments: models)
    func truncatedModelsAreTypedErrors(model: String) throws {
        let bytes = try TestData.bytes("models/\(model)")
        for length in [1, 4, 8, 64, 1000, bytes.count / 2, bytes.count - 1500] {
            #expect(throws: TasksError.self, "\(model) cut to \(length) bytes") { try classifier(bytes.prefix(length)) }
        }
    }

    /// Cutting only into the zip of associated files leaves the model runnable but its labels
    /// unreadable: MediaPipe's "No associated file" error, naming the file.
    @Test func cutZipIsANotFoundErrorNamingTheLabelFile() throws {
        let bytes = try TestData.bytes("models/mobilenet_v1_0.25_224_quant.tflite")
        let error = #expect(throws: TasksError.self) { try classifier(bytes.prefix(bytes.count - 10)) }
        #expect(error?.code == .notFoundError)
        #expect(error?.message.contains("labels.txt") == true, "\(error?.message ?? "")")
    }

    /// Flipped bytes anywhere in the model: each copy either loads and classifies, or throws a
    /// `TasksError`. Positions are seeded, so a failure is reproducible.
    @Test(arguments: models)
    func corruptedModelsNeverCrash(model: String) throws {
        let original = try TestData.bytes("models/\(model)")
        let image = try MPImage(contentsOf: TestData.image("burger-224.png"))
        var generator = SplitMix64(seed: 0x5eed)
        var outcomes = (loaded: 0, rejected: 0)
        for round in 0..<60 {
            var bytes = original
            // Half the rounds hit the first 4 KiB, where the FlatBuffer's tables and vtables are.
            let limit = round % 2 == 0 ? min(4096, bytes.count) : bytes.count
            for _ in 0..<4 {
                bytes[Int.random(in: 0..<limit, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            }
            do {
                _ = try classifier(bytes).classify(image: image)
                outcomes.loaded += 1
            } catch is TasksError {
                outcomes.rejected += 1
            }
        }
        #expect(outcomes.loaded + outcomes.rejected == 60)
        #expect(outcomes.rejected > 0, "some damage must be detected")
    }
}
