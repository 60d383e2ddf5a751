import Foundation
import TestSupport
import Testing

/// A model that cannot be used: exit status 1, nothing on stdout, a message on stderr naming the
/// model's path; no image is looked at.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ModelErrorTests {
    struct ModelCase: Sendable, CustomTestStringConvertible {
        let id: String
        /// Makes the model inside a temporary folder and returns its path.
        let make: @Sendable (URL) throws -> String
        var testDescription: String { id }
    }

    static let cases: [ModelCase] = [
        ModelCase(id: "missing") { $0.appendingPathComponent("missing.tflite").path },
        ModelCase(id: "empty") { folder in
            let url = folder.appendingPathComponent("empty.tflite")
            try Data().write(to: url)
            return url.path
        },
        ModelCase(id: "garbage") { folder in
            let url = folder.appendingPathComponent("garbage.tflite")
            try Data(repeating: 0xA5, count: 2048).write(to: url)
            return url.path
        },
        ModelCase(id: "a photo") { _ in Fixture.burger },
        ModelCase(id: "a folder") { folder in
            let url = folder.appendingPathComponent("model.tflite")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url.path
        },
    ]

    @Test(arguments: cases)
    func unusableModelFailsNamingItsPath(_ model: ModelCase) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try model.make(folder)
        let run = try await VisionTasksTool.run(["classify", "--model", path, "--format", "json", Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "no image is classified:\n\(run)")
        try #require(run.diagnostics.count == 1, "\(run)")
        #expect(run.diagnostics[0].hasPrefix("error: "), "\(run)")
        #expect(run.diagnostics[0].contains(path), "the message names the model:\n\(run)")
    }

    /// A valid model MediaPipe refuses (float input without normalization metadata): MediaPipe's
    /// message (expected/mediapipe_image_mode.json), status 1.
    @Test func refusedModelGivesMediaPipesReason() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.refusedModel, Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        try #require(run.diagnostics.count == 1, "\(run)")
        let reason = try Fixture.mediaPipeError(model: Fixture.refusedModelName)
        #expect(run.diagnostics[0].contains(reason), "\(run)")
        #expect(run.diagnostics[0].contains(Fixture.refusedModel), "\(run)")
    }

    /// An allowlist the model cannot satisfy is found when the model is loaded: status 1, with
    /// the reason naming the list. (Out-of-range numbers are usage errors: UsageErrorTests.)
    @Test(arguments: [
        (["--allow", "no such category"], "no such category")
    ])
    func refusedOptionValueFailsWithTheReason(options: [String], mention: String) async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel] + options + [Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.diagnostics.count == 1 && run.diagnostics[0].lowercased().contains(mention), "\(run)")
    }
}
