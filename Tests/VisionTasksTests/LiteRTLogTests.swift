import Foundation
import LiteRT
import TestSupport
import Testing
import VisionTasks

/// A program that creates a classifier prints nothing on stderr, unless it asks for LiteRT's log.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LiteRTLogTests {
    /// Set in the child process, where the test only creates a classifier.
    static let childVariable = "SWIFT_VISION_TASKS_LITERT_LOG_CHILD"
    static let xnnpackLine = "INFO: Created TensorFlow Lite XNNPACK delegate for CPU."

    @Test func creatingAClassifierIsQuietUnlessAsked() async throws {
        if ProcessInfo.processInfo.environment[Self.childVariable] != nil {
            // Two: LiteRT announces itself at the first only, and the second is not redirected.
            _ = try ImageClassifier(modelPath: TestData.model("mobilenet_v1_0.25_224_quant.tflite").path)
            _ = try ImageClassifier(modelPath: TestData.model("mobilenet_v1_0.25_224_quant.tflite").path)
            FileHandle.standardError.write(Data("stderr still works\n".utf8))
            return
        }
        let filter = "VisionTasksTests.LiteRTLogTests/creatingAClassifierIsQuietUnlessAsked"
        let quiet = try await IsolatedTestRun.run(filter: filter, environment: [Self.childVariable: "1"])
        let shown = try await IsolatedTestRun.run(
            filter: filter, environment: [Self.childVariable: "1", LiteRTLog.environmentVariable: "1"])
        #expect(quiet.status == 0 && shown.status == 0, "\(quiet.stderr)\n\(shown.stderr)")
        #expect(!quiet.stderr.contains(Self.xnnpackLine), "\(quiet.stderr)")
        #expect(quiet.stderr.contains("stderr still works"), "\(quiet.stderr)")
        #expect(shown.stderr.components(separatedBy: Self.xnnpackLine).count == 2, "once: \(shown.stderr)")
    }

}
