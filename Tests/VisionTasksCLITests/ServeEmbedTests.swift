import Foundation
import TestSupport
import Testing

/// `vision-tasks serve`'s embedder options (the answers of a served embedder are
/// `ModelServerTests.RequestHandlerEmbedTests`, in process).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServeEmbedTests {
    /// The embedder options with no model served as an embedder are an error, not ignored.
    @Test func embedderOptionsNeedAnEmbedder() async throws {
        let run = try await VisionTasksTool.run([
            "serve", "--port", "0", "--model", "extractor=\(EmbedCommandTests.extractor)", "--l2-normalize",
        ])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics == [
                "error: --l2-normalize and --quantize apply to embedders, and no --model is served as one "
                    + "(a model without ImageEmbedder metadata needs --task embed)"
            ], "\(run)")
    }
}
