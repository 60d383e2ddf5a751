import Foundation
import TestSupport
import Testing
import VisionTasks

/// Per-channel normalization (three means and standard deviations, which MediaPipe refuses)
/// gives the TFLite Support Task Library's scores, and three equal values give exactly the
/// one-value (MediaPipe) result. The models are the float mobilenet with its metadata replaced
/// (`ClassifierMetadata`); the reference is tflite-support 0.4.4's ImageClassifier on the same
/// normalization (`Tests/Reference/make_per_channel_reference.py`), on 224x224 regions of the
/// PNG photos so that no resizing is involved.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct PerChannelNormalizationTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            let image: String
            /// x, y, width, height in pixels.
            let box: [Double]
            let categories: [ExpectedCategory]
        }
        let mean: [Float]
        let std: [Float]
        let cases: [Case]
    }

    static let floatModel = "mobilenet_v1_0.25_224_1_metadata_1.tflite"

    /// The float mobilenet with NormalizationOptions `mean` and `std`.
    static func model(mean: [Float], std: [Float]) throws -> Data {
        var patcher = ModelPatcher(try TestData.bytes("models/\(floatModel)"))
        patcher.replaceMetadata(with: ClassifierMetadata.bytes(name: "MobileNetV1 image classifier", mean: mean, std: std))
        return patcher.data
    }

    static func classifier(_ model: Data, maxResults: Int = -1) throws -> ImageClassifier {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetBuffer = model
        options.maxResults = maxResults
        options.scoreThreshold = -Float.greatestFiniteMagnitude
        return try ImageClassifier(options: options)
    }

    @Test func matchesTheTaskLibrary() throws {
        let url = TestData.packageRoot.appendingPathComponent("Tests/Reference/task_library_per_channel_outputs.json")
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
        #expect(reference.mean == [123.675, 116.28, 103.53] && reference.std == [58.395, 57.12, 57.375])
        let classifier = try Self.classifier(Self.model(mean: reference.mean, std: reference.std))
        for item in reference.cases {
            let image = try MPImage(contentsOf: TestData.image(item.image))
            let (width, height) = (Double(image.width), Double(image.height))
            let region = CGRect(
                x: item.box[0] / width, y: item.box[1] / height, width: item.box[2] / width, height: item.box[3] / height)
            let result = try classifier.classify(image: image, regionOfInterest: region)
            expectMatchesReference(
                result.classificationResult.classifications[0].categories, item.categories, tolerance: 1e-4,
                "\(item.image) \(item.box)")
        }
    }

    /// Three equal values take the one-value path; both equal the shared model's own (127.5).
    @Test(arguments: ["burger.jpg", "sparrow.png", "cats_and_dogs.jpg"])
    func threeEqualValuesEqualOneValue(image: String) throws {
        let picture = try MPImage(contentsOf: TestData.image(image))
        let scores = { (model: Data) throws -> [Int: Float] in
            let categories = try Self.classifier(model).classify(image: picture).classificationResult.classifications[0]
                .categories
            return Dictionary(uniqueKeysWithValues: categories.map { ($0.index, $0.score) })
        }
        let one = try scores(Self.model(mean: [127.5], std: [127.5]))
        #expect(one.count == 1001)
        #expect(try scores(Self.model(mean: [127.5, 127.5, 127.5], std: [127.5, 127.5, 127.5])) == one)
        #expect(try scores(TestData.bytes("models/\(Self.floatModel)")) == one)
    }

    /// Per-channel values change the scores (the channels are not all given the first value).
    @Test func channelsAreNormalizedSeparately() throws {
        let picture = try MPImage(contentsOf: TestData.image("burger-224.png"))
        let top = { (mean: [Float]) throws -> ResultCategory? in
            try Self.classifier(Self.model(mean: mean, std: [58.395, 57.12, 57.375]), maxResults: 1)
                .classify(image: picture).classificationResult.classifications[0].categories.first
        }
        let perChannel = try #require(try top([123.675, 116.28, 103.53]))
        let swapped = try #require(try top([103.53, 116.28, 123.675]))
        #expect(perChannel.index == 948)
        #expect(abs(perChannel.score - swapped.score) > 1e-3 || perChannel.index != swapped.index)
    }
}
