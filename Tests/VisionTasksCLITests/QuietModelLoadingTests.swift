import Foundation
import TestSupport
import Testing

/// LiteRT's "INFO: Created TensorFlow Lite XNNPACK delegate for CPU." is hidden while the
/// model loads, and shown with `--verbose`; nothing else changes.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct QuietModelLoadingTests {
    @Test(arguments: [
        ["classify", "--model", Fixture.quantModel, "--max-results", "1", Fixture.burger],
        ["label", "--model", Fixture.quantModel, "--max-results", "1", Fixture.burger],
        ["benchmark", "--model", Fixture.quantModel, "--runs", "1", "--cycles", "1", Fixture.burger],
    ])
    func nothingOnStderrByDefaultLiteRTsLineWithVerbose(arguments: [String]) async throws {
        let quiet = try await VisionTasksTool.run(arguments)
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.stderr.isEmpty, "\(quiet)")

        let verbose = try await VisionTasksTool.run(arguments + ["--verbose"])
        #expect(verbose.status == 0, "\(verbose)")
        #expect(verbose.compiledModel, "LiteRT's line is shown: \(verbose)")
        #expect(verbose.diagnostics.isEmpty, "and nothing else: \(verbose)")
        if arguments[0] != "benchmark" {
            #expect(verbose.stdout == quiet.stdout, "the results do not change")
        }
    }

    /// Errors after a hidden load still reach stderr: descriptor 2 is restored, also when the
    /// creation fails.
    @Test func errorsAreShownAfterAQuietLoad() async throws {
        let failing = try await VisionTasksTool.run(["classify", "--model", Fixture.refusedModel, Fixture.burger])
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.diagnostics.count == 1 && failing.diagnostics[0].hasPrefix("error: "), "\(failing)")

        let missing = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, Fixture.burger, "/nonexistent.jpg",
        ])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.hasPrefix("/nonexistent.jpg: error: NOT_FOUND: "), "\(missing)")
        #expect(!missing.compiledModel, "\(missing)")
    }
}
