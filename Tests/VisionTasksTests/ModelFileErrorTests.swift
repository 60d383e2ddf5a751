import Foundation
import Glibc
import TestSupport
import Testing
import VisionTasks

/// A model path that is not a readable regular file is refused by the one file reader, with a
/// message saying what the path is and the file as the error's subject; nothing blocks.
@Suite struct ModelFileErrorTests {
    /// The error creating a classifier for `path`.
    func creationError(_ path: String) -> TasksError? {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = path
        return #expect(throws: TasksError.self) { try ImageClassifier(options: options) }
    }

    func expectRefused(
        _ path: String, code: TasksErrorCode = .invalidArgumentError, reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = creationError(path)
        #expect(error?.code == code, sourceLocation: sourceLocation)
        #expect(error?.subject == .file(path), sourceLocation: sourceLocation)
        #expect(error?.reason == reason, sourceLocation: sourceLocation)
        #expect(error?.message == "\(path): \(reason)", sourceLocation: sourceLocation)
    }

    @Test func fifoIsNamedAsSuchWithoutBlocking() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("model.tflite").path
        try #require(mkfifo(path, 0o600) == 0)
        expectRefused(path, reason: "Expected a regular model file, but this is a FIFO; it was not opened.")
    }

    @Test func directoryIsNamedAsSuch() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        expectRefused(directory.path, reason: "Expected a regular model file, but this is a directory; it was not opened.")
    }

    @Test func deviceIsNamedAsSuch() {
        expectRefused("/dev/null", reason: "Expected a regular model file, but this is a character device; it was not opened.")
    }

    @Test func fileOverTwoGiBIsRefusedUnread() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("huge.tflite").path
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        try #require(truncate(path, 3 << 30) == 0)  // sparse: no disk space used
        expectRefused(
            path,
            reason: "The model file is too large: 3221225472 bytes is more than the limit of "
                + "2147483648 bytes (2 GiB).")
    }

    @Test func missingFileIsNotFound() {
        let error = #expect(throws: TasksError.self) { try ImageClassifier(modelPath: "/nonexistent/model.tflite") }
        #expect(error?.code == .notFoundError)
        #expect(error?.subject == .file("/nonexistent/model.tflite"))
        // MediaPipe's words name the path, so the message does not repeat it in front.
        #expect(
            error?.description
                == "NOT_FOUND: Unable to open file at /nonexistent/model.tflite: the model file was not found "
                + "(no such file or folder).")
    }

    @Test func emptyFileIsRefused() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("empty.tflite").path
        try #require(FileManager.default.createFile(atPath: path, contents: Data()))
        expectRefused(path, reason: "The model file is empty (0 bytes).")
    }

    /// A model-contract error (MediaPipe's message names the tensor) names the file too.
    @Test(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
    func contractErrorNamesTheFile() {
        let path = TestData.model("mobilenet_v1_0.25_224_1_default_1.tflite").path
        expectRefused(
            path, code: .notFoundError,
            reason: "Input tensor has type float32: it requires specifying "
                + "NormalizationOptions metadata to preprocess input images." + addNormalizationHint)
    }

    /// Option errors name the option as data; their MediaPipe message is shown unchanged.
    @Test(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
    func optionErrorNamesTheOption() {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
        options.maxResults = 0
        let error = #expect(throws: TasksError.self) { try ImageClassifier(options: options) }
        #expect(error?.subject == .option("maxResults"))
        #expect(error?.message == "Invalid `max_results` option: value must be != 0.")
    }
}

/// `scoreThreshold = .nan` would drop every category without a word: it is refused at creation.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ScoreThresholdOptionTests {
    @Test func nanThresholdIsRefused() {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
        options.scoreThreshold = .nan
        let error = #expect(throws: TasksError.self) { try ImageClassifier(options: options) }
        #expect(error?.code == .invalidArgumentError)
        #expect(error?.subject == .option("scoreThreshold"))
        #expect(error?.message == "Invalid `score_threshold` option: value must be a number, got NaN.")
    }
}
