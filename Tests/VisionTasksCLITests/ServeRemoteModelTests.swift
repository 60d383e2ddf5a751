import Foundation
import TestSupport
import Testing

/// `serve --remote NAME`: the server serves the version `models download` installed and reports
/// it (the model metadata's `versions`, `model_version` in infer responses, the only version the
/// `versions/V` routes accept); after a newer download, a restarted server serves and reports the
/// new one (the rolling update `scripts/test-serve-replicas` runs behind a load balancer).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServeRemoteModelTests {
    /// What a server started with `--remote mobilenet` says about the model's version, and its
    /// infer answer's categories for burger.jpg and sparrow.jpg.
    static func served(_ site: ModelsCommandTests.Site, expectVersion version: String) async throws -> [NSArray] {
        let server = try await ServerProcess(["--remote", "mobilenet", "--cache", site.cache.path])
        let metadata = try #require(try await server.request("GET", "/v2/models/mobilenet").json as? [String: Any])
        #expect(metadata["versions"] as? [String] == [version], "\(metadata)")
        #expect(try await server.request("GET", "/v2/models/mobilenet/versions/\(version)/ready").status == 200)
        let other = try await server.request("GET", "/v2/models/mobilenet/versions/\(version)0/ready")
        #expect(other.status == 404, "\(other.text)")
        #expect(other.text.contains("has no version '\(version)0'; this server has version \(version)"), "\(other.text)")
        let reply = try await server.request(
            "POST", "/v2/models/mobilenet/versions/\(version)/infer",
            body: try ServeTests.jsonInferRequest(parameters: ["max_results": 3]))
        #expect(reply.status == 200, "\(reply.text)")
        let json = try #require(reply.json as? [String: Any])
        #expect(json["model_version"] as? String == version, "\(reply.text)")
        #expect(await server.terminate() == 0)
        let elements = try #require((json["outputs"] as? [[String: Any]])?.first?["data"] as? [String])
        return try elements.map { element in
            let record = try JSONSerialization.jsonObject(with: Data(element.utf8)) as? [String: Any]
            return try #require(record?["classifications"] as? NSArray, "\(element)")
        }
    }

    @Test func servesAndReportsTheInstalledVersion() async throws {
        let site = try ModelsCommandTests.Site()
        #expect(try await VisionTasksTool.run(["models", "index", site.server.root.path]).status == 0)
        let download = ["models", "download", "mobilenet"]
        #expect(try await VisionTasksTool.run(download, environment: site.environment).status == 0)
        let first = try await Self.served(site, expectVersion: "1")
        #expect(first.count == 2)

        // Version 2 is the quantized MobileNet the other serve tests use: its answers must be
        // `classify --format json`'s for that file, so the server really loaded the new version.
        let mobilenet = site.server.root.appendingPathComponent("mobilenet.tflite")
        try FileManager.default.removeItem(at: mobilenet)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: ServerProcess.mobilenet), to: mobilenet)
        #expect(try await VisionTasksTool.run(["models", "index", site.server.root.path]).status == 0)
        let update = try await VisionTasksTool.run(download, environment: site.environment)
        #expect(update.diagnostics == ["downloaded mobilenet version 2"], "\(update)")
        let second = try await Self.served(site, expectVersion: "2")
        let expected = try await ServeTests.cliClassifications(maxResults: 3)
        #expect(second.count == expected.count)
        for (served, local) in zip(second, expected) { #expect(served.isEqual(local), "\(served)") }
        #expect(!first[0].isEqual(second[0]), "version 1 is another model, whose scores differ")
    }

    @Test func modelNotDownloadedStopsTheStart() async throws {
        let cache = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let run = try await VisionTasksTool.run(["serve", "--port", "0", "--remote", "mobilenet", "--cache", cache.path])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics == [
                "error: FAILED_PRECONDITION: mobilenet: the remote model is not downloaded in \(cache.path): "
                    + "run `vision-tasks models download mobilenet`."
            ], "\(run)")
    }

    @Test(arguments: [
        (["--cache", "/tmp", "--model", "m=x.tflite"], "--cache goes with --remote"),
        (["--remote", "../m"], "--remote '../m': "),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let run = try await VisionTasksTool.run(["serve"] + arguments)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains(message), "\(run)")
    }
}
