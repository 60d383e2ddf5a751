import Foundation
import TestSupport
import Testing

/// `classify --decode exact|fast`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct DecodeOptionTests {
    @Test func fastDecodingClassifiesAsExactOnALargePhoto() async throws {
        let arguments = [
            "classify", "--model", Fixture.floatModel, "--format", "jsonl", "--max-results", "1",
            Fixture.image("cats_and_dogs.jpg"),
        ]
        let exact = try await VisionTasksTool.run(arguments)
        let fast = try await VisionTasksTool.run(arguments + ["--decode", "fast"])
        #expect(exact.status == 0 && fast.status == 0, "\(exact)\n\(fast)")
        let top = { (run: VisionTasksTool.Run) -> Int? in
            let heads = run.jsonObjects(format: "jsonl").first?["classifications"] as? [[String: Any]]
            return (heads?.first?["categories"] as? [[String: Any]])?.first?["index"] as? Int
        }
        #expect(top(fast) != nil && top(fast) == top(exact), "\(exact)\n\(fast)")
        #expect(fast.stdout != exact.stdout, "the pixels differ, and so do the scores")
    }

    @Test func unknownModeIsAUsageError() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--decode", "quick", Fixture.burger])
        #expect(run.status == 2, "\(run)")
        #expect(run.diagnostics.first == "error: --decode must be exact or fast, got 'quick'", "\(run)")
    }
}
