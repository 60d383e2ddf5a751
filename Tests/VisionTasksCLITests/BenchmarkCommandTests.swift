import Foundation
import Testing
import TestSupport

/// `vision-tasks benchmark`: real figures in JSON, and no memory growth across classifier
/// create/destroy cycles, measured in its own process so no other test disturbs it.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct BenchmarkCommandTests {
    struct Report: Decodable {
        struct Timing: Decodable { let median: Double; let p90: Double }
        let runs: Int
        let createMilliseconds, decodeMilliseconds, classifyMilliseconds, decodeAndClassifyMilliseconds: Timing
        let cycles: Int
        let residentBytesBefore, residentBytesAfter: Int
    }

    @Test func figuresAndNoLeakAcrossCycles() async throws {
        let run = try await VisionTasksTool.run(["benchmark", "--model", Fixture.quantModel, "--runs", "5", "--cycles", "300",
                                                 "--format", "json", Fixture.burger])
        #expect(run.status == 0, "\(run)")
        let report = try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8))
        #expect(report.runs == 5)
        for timing in [report.createMilliseconds, report.decodeMilliseconds, report.classifyMilliseconds,
                       report.decodeAndClassifyMilliseconds] {
            #expect(timing.median > 0 && timing.median <= timing.p90)
        }
        #expect(report.decodeAndClassifyMilliseconds.median > report.classifyMilliseconds.median * 0.5)
        // Each cycle loads a 0.5 MB model copy and allocates tensor buffers: a leak of either
        // would add 150 MB or more over 300 cycles.
        let growth = report.residentBytesAfter - report.residentBytesBefore
        #expect(report.cycles == 300)
        #expect(growth < 24 << 20, "resident memory grew by \(growth >> 20) MiB over 300 cycles")
    }

    /// `--runs N` times every step N times (model creation too) and says so next to each figure.
    @Test func everyStepIsTimedRunsTimesWithTheSampleCount() async throws {
        let json = try await VisionTasksTool.run(["benchmark", "--model", Fixture.quantModel, "--runs", "7", "--cycles", "0",
                                                  "--format", "json", Fixture.burger])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        for step in ["createMilliseconds", "decodeMilliseconds", "classifyMilliseconds", "decodeAndClassifyMilliseconds"] {
            let timing = object[step] as? [String: Any]
            #expect(timing.map { Set($0.keys) } == ["median", "p90", "samples"], "\(step): \(json)")
            #expect(timing?["samples"] as? Int == 7, "\(step): \(json)")
        }

        let table = try await VisionTasksTool.run(["benchmark", "--model", Fixture.quantModel, "--runs", "7", "--cycles", "0",
                                                   Fixture.burger])
        #expect(table.status == 0, "\(table)")
        let rows = table.stdoutLines.filter { $0.contains(" median ") }
        #expect(rows.count == 4 && rows.allSatisfy { $0.hasSuffix("   (7 samples)") }, "\(table)")
    }

    @Test func missingModelIsAUsageError() async throws {
        let run = try await VisionTasksTool.run(["benchmark", Fixture.burger])
        #expect(run.status == 2, "\(run)")
        #expect(run.diagnostics.first == "error: --model is required", "\(run)")
    }
}
