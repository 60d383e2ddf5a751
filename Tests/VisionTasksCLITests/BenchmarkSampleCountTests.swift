import Foundation
import TestSupport
import Testing

/// `benchmark --runs N`: every step is timed N times, model creation included, and each
/// figure says how many samples it comes from.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct BenchmarkSampleCountTests {
    /// `--runs N` times every step N times (model creation too) and says so next to each figure.
    @Test func everyStepIsTimedRunsTimesWithTheSampleCount() async throws {
        let json = try await VisionTasksTool.run([
            "benchmark", "--model", Fixture.quantModel, "--runs", "7", "--cycles", "0",
            "--format", "json", Fixture.burger,
        ])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        let steps = [
            "createMilliseconds", "decodeMilliseconds", "classifyMilliseconds", "inferenceMilliseconds",
            "decodeAndClassifyMilliseconds",
        ]
        for step in steps {
            let timing = object[step] as? [String: Any]
            #expect(timing.map { Set($0.keys) } == ["median", "p90", "samples"], "\(step): \(json)")
            #expect(timing?["samples"] as? Int == 7, "\(step): \(json)")
        }
        // The overhead is the difference of the two medians, as documented (to the nanosecond).
        let median = { (step: String) in (object[step] as? [String: Any])?["median"] as? Double }
        let overhead = try #require(object["classifyOverheadMilliseconds"] as? Double, "\(json)")
        let classify = try #require(median("classifyMilliseconds")), inference = try #require(median("inferenceMilliseconds"))
        #expect(abs(overhead - (classify - inference)) <= 5e-7, "\(json)")

        let table = try await VisionTasksTool.run([
            "benchmark", "--model", Fixture.quantModel, "--runs", "7", "--cycles", "0",
            Fixture.burger,
        ])
        #expect(table.status == 0, "\(table)")
        let rows = table.stdoutLines.filter { $0.contains(" median ") && $0.contains(" p90 ") }
        #expect(rows.count == 5 && rows.allSatisfy { $0.hasSuffix("   (7 samples)") }, "\(table)")
        #expect(table.stdoutLines.contains { $0.hasPrefix("  overhead  ") && $0.hasSuffix(" ms   (classify minus inference)") })
    }
}
