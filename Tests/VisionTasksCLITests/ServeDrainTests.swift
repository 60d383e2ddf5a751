import Foundation
import TestSupport
import Testing

/// `serve --drain-seconds`: after SIGTERM, readiness fails while requests are still served, so
/// that a load balancer's health check takes the replica out before its listener closes.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServeDrainTests {
    @Test func sigtermFailsReadinessFirstAndKeepsServing() async throws {
        let server = try await ServerProcess(["--model", "m=\(ServerProcess.mobilenet)", "--drain-seconds", "600"])
        #expect(try await server.request("GET", "/v2/health/ready").status == 200)
        server.send(SIGTERM)
        // Each answer is the event waited on: readiness turns 503 once the signal is handled.
        var ready = 200
        let deadline = Date().addingTimeInterval(120)
        while ready == 200, Date() < deadline { ready = try await server.request("GET", "/v2/health/ready").status }
        let draining = try await server.request("GET", "/v2/health/ready")
        #expect(ready == 503 && draining.error == "The server is draining: it is shutting down and takes no new work.")
        #expect(try await server.request("GET", "/v2/health/live").status == 200)
        let classify = try await server.request(
            "POST", "/v1/models/m/classify", body: try Data(contentsOf: ServeTests.burger),
            headers: ["Content-Type": "image/jpeg"])
        #expect(classify.status == 200, "still served while draining: \(classify.text.prefix(200))")
        #expect(await server.terminate() == 0, "a second SIGTERM ends the drain (600 s) at once")
    }

    @Test func withoutADrainSigtermStopsAtOnceAndSigintNeverDrains() async throws {
        let server = try await ServerProcess(["--model", "m=\(ServerProcess.mobilenet)", "--drain-seconds", "600"])
        server.send(SIGINT)
        #expect(await server.terminate() == 0, "SIGINT does not drain: the exit comes without waiting 600 s")
        let bad = try await VisionTasksTool.run(["serve", "--model", "m=\(ServerProcess.mobilenet)", "--drain-seconds", "-1"])
        #expect(bad.status == 2 && bad.stderr.contains("--drain-seconds must be between 0.0 and 3600.0, got -1"), "\(bad)")
    }
}
