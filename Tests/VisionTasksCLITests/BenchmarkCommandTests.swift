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

    @Test func missingModelIsAUsageError() async throws {
        let run = try await VisionTasksTool.run(["benchmark", Fixture.burger])
        #expect(run.status == 2, "\(run)")
        #expect(run.diagnostics.first == "error: --model is required", "\(run)")
    }
}
