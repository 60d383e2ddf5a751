import Foundation
import TestSupport
import Testing

/// `benchmark --clock cpu` times CPU time and says so; other values are usage errors.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct BenchmarkClockTests {
    @Test func cpuClockIsReported() async throws {
        let json = try await VisionTasksTool.run([
            "benchmark", "--model", Fixture.quantModel, "--runs", "3", "--cycles", "0",
            "--clock", "cpu", "--format", "json", Fixture.burger,
        ])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        #expect(object["clock"] as? String == "cpu", "\(json)")
        let classify = object["classifyMilliseconds"] as? [String: Any]
        #expect((classify?["median"] as? Double).map { $0 > 0 } == true, "\(json)")

        let table = try await VisionTasksTool.run([
            "benchmark", "--model", Fixture.quantModel, "--runs", "3", "--cycles", "0",
            "--clock", "cpu", Fixture.burger,
        ])
        #expect(table.status == 0 && table.stdoutLines.first?.hasSuffix(", CPU time") == true, "\(table)")
    }

    @Test func unknownClockIsAUsageError() async throws {
        let run = try await VisionTasksTool.run([
            "benchmark", "--model", Fixture.quantModel, "--clock", "sundial", Fixture.burger,
        ])
        #expect(run.status == 2, "\(run)")
        #expect(run.diagnostics.first == "error: --clock must be wall or cpu, got 'sundial'", "\(run)")
    }
}
