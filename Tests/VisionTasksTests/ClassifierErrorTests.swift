import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// Each misuse gives MediaPipe's error code and message (or, where MediaPipe has none, ours).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ClassifierErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var model = "mobilenet_v1_0.25_224_quant.tflite"
        let change: Change
        let code: TasksErrorCode
        let message: String
        var testDescription: String { name }
    }

    /// The option a case sets.
    enum Change: Sendable {
        case none, maxResults(Int), lists(allow: [String], deny: [String]), gpu, liveStream, threads(Int)

        func apply(to options: ImageClassifierOptions) {
            switch self {
            case .none: break
            case .maxResults(let value): options.maxResults = value
            case .lists(let allow, let deny):
                options.categoryAllowlist = allow
                options.categoryDenylist = deny
            case .gpu: options.baseOptions.delegate = .GPU
            case .liveStream: options.runningMode = .liveStream
            case .threads(let count): options.baseOptions.threadCount = count
            }
        }
    }

    static let creationCases: [Case] = [
        Case(
            name: "max results 0", change: .maxResults(0),
            code: .invalidArgumentError, message: "Invalid `max_results` option: value must be != 0."),
        Case(
            name: "both lists", change: .lists(allow: ["bagel"], deny: ["plate"]),
            code: .invalidArgumentError,
            message: "`category_allowlist` and `category_denylist` are mutually exclusive options."),
        Case(
            name: "allowlist without labels", model: "mobilenet_v2_1.0_224_quant.tflite",
            change: .lists(allow: ["bagel"], deny: []), code: .invalidArgumentError,
            message:
                "Using `category_allowlist` or `category_denylist` requires labels to be present in the TFLite Model Metadata but none was found."
        ),
        Case(
            name: "denylist without labels", model: "mobilenet_v1_0.25_224_quant_without_subgraph_metadata.tflite",
            change: .lists(allow: [], deny: ["bagel"]), code: .invalidArgumentError,
            message:
                "Using `category_allowlist` or `category_denylist` requires labels to be present in the TFLite Model Metadata but none was found."
        ),
        Case(
            name: "allowlist of unknown names (deliberately unlike MediaPipe)",
            change: .lists(allow: ["no such thing", "nor this"], deny: []), code: .invalidArgumentError,
            message:
                "None of the names in `category_allowlist` (no such thing, nor this) is a category name of the model, so every category would be dropped."
        ),
        Case(
            name: "float model without normalization", model: "mobilenet_v1_0.25_224_1_default_1.tflite", change: .none,
            code: .notFoundError,
            message:
                "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess input images."
                + addNormalizationHint),
        Case(
            name: "GPU delegate", change: .gpu, code: .invalidArgumentError,
            message: "The GPU delegate is not available on Linux; use Delegate.CPU."),
        Case(
            name: "live stream without delegate", change: .liveStream, code: .invalidArgumentError,
            message:
                "The vision task is in live stream mode. An object must be set as the delegate of the task in its options to ensure asynchronous delivery of results."
        ),
        Case(
            name: "zero threads", change: .threads(0), code: .invalidArgumentError,
            message: "Invalid thread count: 0; it must be between 1 and 64."),
    ]

    @Test(arguments: creationCases)
    func creationError(_ item: Case) throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model(item.model).path
        item.change.apply(to: options)
        let error = #expect(throws: TasksError.self) { try ImageClassifier(options: options) }
        #expect(error?.code == item.code)
        #expect(error?.reason == item.message)
        // Model errors name the model file; option errors name the option, not a file.
        if let subject = error?.subject, subject.kind == .file {
            #expect(subject == .file(options.baseOptions.modelAssetPath))
            #expect(error?.message == "\(options.baseOptions.modelAssetPath): \(item.message)")
        } else {
            #expect(error?.message == item.message)
        }
    }

    @Test func noModelGivesExternalFileError() {
        let error = #expect(throws: TasksError.self) { try ImageClassifier(options: ImageClassifierOptions()) }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.description == "INVALID_ARGUMENT: ExternalFile must specify at least one of 'file_content', "
                + "'file_name', 'file_pointer_meta' or 'file_descriptor_meta'.")
    }

    /// Bridged to NSError as MediaPipe iOS's errors are: its domain, code and description.
    @Test func bridgesToNSErrorLikeMediaPipe() {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
        options.maxResults = 0
        do {
            _ = try ImageClassifier(options: options)
            Issue.record("creation should fail")
        } catch {
            let error = error as NSError
            #expect(error.domain == "com.google.mediapipe.tasks")
            #expect(error.code == 3)
            #expect(error.localizedDescription == "INVALID_ARGUMENT: Invalid `max_results` option: value must be != 0.")
        }
    }

    @Test func missingDirectoryEmptyAndTruncatedModelsNameThePath() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.tflite")
        try Data().write(to: empty)
        let truncated = folder.appendingPathComponent("truncated.tflite")
        try TestData.bytes("models/mobilenet_v1_0.25_224_quant.tflite").prefix(5000).write(to: truncated)
        let cases: [(String, TasksErrorCode)] = [
            (folder.appendingPathComponent("missing.tflite").path, .notFoundError),
            (folder.path, .invalidArgumentError),
            (empty.path, .invalidArgumentError),
            (truncated.path, .invalidArgumentError),
        ]
        for (path, code) in cases {
            let error = #expect(throws: TasksError.self) { try ImageClassifier(modelPath: path) }
            #expect(error?.code == code, "\(path)")
            #expect(error?.message.contains(path) == true, "\(error?.message ?? "") names \(path)")
        }
    }

    @Test func imageMethodInVideoModeIsRejected() throws {
        let classifier = try fullClassifier("mobilenet_v1_0.25_224_quant.tflite") { $0.runningMode = .video }
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let error = #expect(throws: TasksError.self) { try classifier.classify(image: image) }
        #expect(error?.message == "The vision task is not initialized with image mode. Current Running Mode: Video")
    }

    static let invalidRegions: [(x: Double, y: Double, width: Double, height: Double, message: String)] = [
        (0.5, 0.5, 0, 0.2, "Expected RectF with left < right and top < bottom."),
        (-0.1, 0, 0.5, 0.5, "Expected RectF values to be in [0,1]."),
        (0.6, 0, 0.5, 0.5, "Expected RectF values to be in [0,1]."),
    ]

    @Test func invalidRegionsOfInterest() throws {
        let classifier = try fullClassifier("mobilenet_v1_0.25_224_quant.tflite")
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))
        for item in Self.invalidRegions {
            let region = CGRect(x: item.x, y: item.y, width: item.width, height: item.height)
            let error = #expect(throws: TasksError.self) { try classifier.classify(image: image, regionOfInterest: region) }
            #expect(error?.code == .invalidArgumentError)
            #expect(error?.message.hasPrefix(item.message) == true, "\(region): \(error?.message ?? "")")
        }
    }
}
