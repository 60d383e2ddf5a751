import Foundation
import TestSupport
import Testing

/// `vision-tasks serve` started on a free loopback port, end to end: the v1 route against the
/// CLI's own answers, and what the daemon does on its sockets (multipart parsing, bodies over the
/// limit, garbage, the queue, slow clients, SIGTERM, the token). What status and message a request
/// gets is tested in process (`ModelServerTests.RequestHandlerTests`).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServeTests {
    static let burger = TestData.image("burger.jpg")
    static let sparrow = TestData.image("sparrow.jpg")

    /// `classify --format json`'s classifications for burger.jpg and sparrow.jpg, as JSON values.
    static func cliClassifications(maxResults: Int = 5) async throws -> [NSArray] {
        let run = try await VisionTasksTool.run([
            "classify", "--model", ServerProcess.mobilenet, "--max-results", String(maxResults), "--format", "json",
            burger.path, sparrow.path,
        ])
        try #require(run.status == 0, "\(run)")
        return try run.jsonObjects(format: "json").map { try #require($0["classifications"] as? NSArray) }
    }

    static func records(_ reply: ServerProcess.Reply) throws -> [[String: Any]] {
        try #require(reply.json as? [[String: Any]], "not a JSON array: \(reply.text)")
    }

    @Test func classifyRawBodyAndMultipartGiveTheCLIRecords() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let expected = try await Self.cliClassifications()
        let raw = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: try Data(contentsOf: Self.burger),
            headers: ["Content-Type": "image/jpeg"])
        #expect(raw.status == 200, "\(raw.text)")
        let rawRecords = try Self.records(raw)
        #expect(rawRecords.count == 1)
        #expect((rawRecords.first?["classifications"] as? NSArray)?.isEqual(expected[0]) == true, "\(raw.text)")

        let (body, boundary) = Self.multipart([("burger.jpg", Self.burger), ("sparrow.jpg", Self.sparrow)])
        let form = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: body,
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
        #expect(form.status == 200, "\(form.text)")
        let formRecords = try Self.records(form)
        #expect(formRecords.map { $0["image"] as? String } == ["burger.jpg", "sparrow.jpg"])
        for (record, classifications) in zip(formRecords, expected) {
            #expect((record["classifications"] as? NSArray)?.isEqual(classifications) == true, "\(form.text)")
        }
        #expect(await server.terminate() == 0)
        let log = server.accessLog.filter { $0["path"] as? String == "/v1/models/mobilenet/classify" }
        #expect(log.map { $0["status"] as? Int } == [200, 200], "\(server.stderr)")
    }

    static func multipart(_ files: [(String, URL)]) -> (Data, String) {
        let boundary = "vision-tasks-test-boundary"
        var body = Data()
        for (index, (name, url)) in files.enumerated() {
            body.append(
                Data(
                    ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\(index)\"; filename=\"\(name)\"\r\n"
                        + "Content-Type: image/jpeg\r\n\r\n").utf8))
            body.append((try? Data(contentsOf: url)) ?? Data())
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, boundary)
    }

    /// An OIP v2 request for burger.jpg and sparrow.jpg in the JSON form (base64 elements).
    static func jsonInferRequest(parameters: [String: Any] = [:]) throws -> Data {
        let images = try [burger, sparrow].map { try Data(contentsOf: $0).base64EncodedString() }
        let request: [String: Any] = [
            "id": "request-1", "parameters": parameters,
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [2], "data": images]],
        ]
        return try JSONSerialization.data(withJSONObject: request)
    }

    /// What only the daemon decides or parses, so only a socket shows it (the routes', parameters'
    /// and limits' answers are `ModelServerTests.RequestHandlerTests`): the path as libmicrohttpd
    /// hands it over, and a form's fields read apart from its files.
    /// (description, method, path, body, headers, expected status, expected words in the error)
    static let errorCases: [(String, String, String, Data, [String: String], Int, String)] = [
        // A decoded %00 would end the path the server sees at "/v2/models/mobilenet".
        ("NUL in path", "GET", "/v2/models/mobilenet%00x/ready", Data(), [:], 404, "Unknown model 'mobilenet%00x'"),
        (
            "form without files", "POST", "/v1/models/mobilenet/classify",
            Data("--bb\r\nContent-Disposition: form-data; name=\"max_results\"\r\n\r\n3\r\n--bb--\r\n".utf8),
            ["Content-Type": "multipart/form-data; boundary=bb"], 400, "has no file parts"
        ),
    ]

    @Test func badRequestsGetTheirStatusAndAReason() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        for (name, method, path, body, headers, status, words) in Self.errorCases {
            let reply = try await server.request(method, path, body: body.isEmpty ? nil : body, headers: headers)
            #expect(reply.status == status, "\(name): \(reply.text)")
            #expect(reply.error?.contains(words) == true, "\(name): \(reply.text)")
        }
        #expect(await server.terminate() == 0)
    }

    /// Many small parts make the post processor's reads end right after some parts' headers;
    /// each part still counts once.
    @Test func everyMultipartPartCountsOnce() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        var body = Data()
        for index in 0..<100_000 {
            body.append(Data("--bb\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\(index).jpg\"\r\n\r\nx\r\n".utf8))
        }
        body.append(Data("--bb--\r\n".utf8))
        let reply = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: body, headers: ["Content-Type": "multipart/form-data; boundary=bb"])
        #expect(reply.status == 400)
        #expect(reply.error == "The request has 100000 images; at most 64 are allowed.", "\(reply.text)")
        #expect(await server.terminate() == 0)
    }

    @Test func aBodyOverTheLimitGets413BeforeItIsRead() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /v1/models/mobilenet/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                + "Content-Length: \(100 * 1024 * 1024)\r\nConnection: close\r\n\r\n")
        connection.send(Data(count: 1024 * 1024))
        #expect(await connection.responseStatus() == 413)
        #expect(await server.terminate() == 0)
    }

    @Test func garbageHTTPGetsAnErrorAndTheServerLivesOn() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        for garbage in [
            "\u{1}\u{2}\u{3} nonsense\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\nHost: x\r\n\r\n",
            String(repeating: "A", count: 200_000),
        ] {
            let connection = try RawConnection(port: server.port)
            connection.send(garbage)
            let status = await connection.responseStatus()
            #expect(status == nil || (400..<600).contains(status!), "\(garbage.prefix(20)): \(String(describing: status))")
        }
        #expect(try await server.request("GET", "/v2/health/live").status == 200)
        #expect(await server.terminate() == 0)
    }

    /// For tests that hold a connection open while they do other things: an idle timeout far
    /// beyond anything a loaded machine can take and no minimum body rate, so only the events
    /// under test close it.
    static var holdingConnections: [String] {
        ["--model", "mobilenet=\(ServerProcess.mobilenet)", "--idle-timeout", "3600", "--min-body-rate", "0"]
    }

    @Test func aFullQueueGets503WithRetryAfter() async throws {
        let server = try await ServerProcess(
            Self.holdingConnections + ["--max-requests", "1", "--workers", "1", "--max-images", "200"])
        let burger = try Data(contentsOf: Self.burger)
        // 200 photos keep the one slot for seconds: long enough to see it taken and be refused.
        let (photos, boundary) = Self.multipart(Array(repeating: ("burger.jpg", Self.burger), count: 200))
        async let long = server.request(
            "POST", "/v1/models/mobilenet/classify", body: photos,
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
        try await Self.waitForInFlight(server, 1)
        let reply = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: burger, headers: ["Content-Type": "image/jpeg"])
        #expect(reply.status == 503, "\(reply.text)")
        #expect(reply.header("Retry-After") == "1")
        #expect(try await Self.records(long).count == 200)
        #expect(await server.terminate() == 0)
    }

    @Test func aBodyBeingReceivedHoldsNoSlot() async throws {
        let server = try await ServerProcess(Self.holdingConnections + ["--max-requests", "1"])
        let holder = try RawConnection(port: server.port)
        let burger = try Data(contentsOf: Self.burger)
        holder.send(
            "POST /v1/models/mobilenet/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                + "Content-Length: \(burger.count)\r\nConnection: close\r\n\r\n")
        holder.send(burger.prefix(100))
        let receiving = try await Waiting.poll(safetyNet: 120) {
            try await server.metric("vision_tasks_request_body_bytes") == 100
        }
        try #require(receiving, "the server never counted the holder's 100 bytes")
        let reply = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: burger, headers: ["Content-Type": "image/jpeg"])
        #expect(reply.status == 200, "\(reply.text)")
        holder.send(burger.dropFirst(100))
        #expect(await holder.responseStatus() == 200)
        #expect(await server.terminate() == 0)
    }

    /// Polls /metrics until `count` inference requests are in flight.
    static func waitForInFlight(
        _ server: ServerProcess, _ count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let reached = try await Waiting.poll(safetyNet: 120) {
            try await server.metric("vision_tasks_requests_in_flight") == Double(count)
        }
        try #require(reached, "never \(count) requests in flight", sourceLocation: sourceLocation)
    }

    @Test func aSlowClientDoesNotBlockOthers() async throws {
        let server = try await ServerProcess(Self.holdingConnections + ["--workers", "1"])
        let slow = try RawConnection(port: server.port)
        slow.send("POST /v1/models/mobilenet/classify HTTP/1.1\r\nHost: loc")
        let reply = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: try Data(contentsOf: Self.burger),
            headers: ["Content-Type": "image/jpeg"])
        #expect(reply.status == 200)
        #expect(try Self.records(reply).first.map { "\($0)" }?.contains("cheeseburger") == true)
        slow.send("alhost\r\nContent-Type: image/jpeg\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(await slow.responseStatus() == 400)
        #expect(await server.terminate() == 0)
    }

    @Test func sigtermFinishesTheRequestsAlreadyReceived() async throws {
        let server = try await ServerProcess(Self.holdingConnections)
        let burger = try Data(contentsOf: Self.burger)
        let clients = try (0..<4).map { _ in try RawConnection(port: server.port) }
        for client in clients {
            client.send(
                "POST /v1/models/mobilenet/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
                    + "Content-Length: \(burger.count)\r\nConnection: close\r\n\r\n")
            client.send(burger.prefix(10))
        }
        let receiving = try await Waiting.poll(safetyNet: 120) {
            try await server.metric("vision_tasks_request_body_bytes") == Double(10 * clients.count)
        }
        try #require(receiving, "the server never counted the four requests' first bytes")
        let exit = Task { await server.terminate() }
        // The server stops accepting (connections are refused) while the four are still open.
        let refused = await Waiting.poll(safetyNet: 120) { (try? RawConnection(port: server.port)) == nil }
        #expect(refused)
        for client in clients { client.send(burger.dropFirst(10)) }
        var replies: [String] = []
        for client in clients { replies.append(String(decoding: await client.readAll(), as: UTF8.self)) }
        for reply in replies {
            #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(200))")
            #expect(reply.contains("cheeseburger"))
        }
        #expect(await exit.value == 0)
    }

    @Test func theTokenIsRequiredWhenGiven() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokenFile = folder.appendingPathComponent("token")
        try Data("s3cret-token\n".utf8).write(to: tokenFile)
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)", "--token-file", tokenFile.path])
        let body = try Self.jsonInferRequest()
        let missing = try await server.request("POST", "/v2/models/mobilenet/infer", body: body)
        #expect(missing.status == 401)
        #expect(missing.header("WWW-Authenticate") == "Bearer")
        let wrong = try await server.request(
            "POST", "/v2/models/mobilenet/infer", body: body, headers: ["Authorization": "Bearer s3cret-tokem"])
        #expect(wrong.status == 401)
        let right = try await server.request(
            "POST", "/v2/models/mobilenet/infer", body: body, headers: ["Authorization": "Bearer s3cret-token"])
        #expect(right.status == 200)
        #expect(try await server.request("GET", "/metrics").status == 401)
        #expect(try await server.request("GET", "/v2/health/ready").status == 200, "probes need no token")
        #expect(await server.terminate() == 0)
    }

    /// A client that sends its whole body before reading (curl, URLSession) gets the refusal, not
    /// a broken pipe: the server reads and drops the body of a request it refused from its head.
    @Test(arguments: ["/v2/models/missing/infer", "/v2/models/mobilenet/infer"])
    func aRefusedRequestsBodyIsReadBeforeTheConnectionCloses(path: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokenFile = folder.appendingPathComponent("token")
        try Data("s3cret-token\n".utf8).write(to: tokenFile)
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)", "--token-file", tokenFile.path])
        let body = Data(count: 8 * 1024 * 1024)
        let connection = try RawConnection(port: server.port)
        let authorization = path.contains("missing") ? "Authorization: Bearer s3cret-token\r\n" : ""
        connection.send(
            "POST \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\(authorization)"
                + "Content-Length: \(body.count)\r\n\r\n")
        #expect(connection.send(body), "the server closed the connection while the body was being sent")
        #expect(await connection.responseStatus() == (path.contains("missing") ? 404 : 401))
        #expect(await server.terminate() == 0)
    }

    @Test func aNonLoopbackHostNeedsATokenOrInsecure() async throws {
        let run = try await VisionTasksTool.run(["serve", "--model", "m=\(ServerProcess.mobilenet)", "--host", "0.0.0.0"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--host 0.0.0.0 is not a loopback address"), "\(run)")
    }

    @Test func aModelThatFailsToLoadStopsTheStart() async throws {
        let run = try await VisionTasksTool.run(["serve", "--model", "m=/nonexistent/model.tflite", "--port", "0"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("/nonexistent/model.tflite"), "\(run)")
        #expect(!run.stderr.contains("listening"))
    }

    @Test func aLabelerGivesTheLabelCommandsRecords() async throws {
        let export = try AutoMLExportFolder()
        let image = TestData.image("burger.jpg")
        let cli = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, "--format", "json", image.path])
        let expected = try #require(cli.jsonObjects(format: "json").first?["labels"] as? NSArray, "\(cli)")
        #expect(expected.count == 1, "the flowers model sees one label, roses, in burger.jpg: \(cli)")
        let server = try await ServerProcess(["--label", "flowers=\(export.manifestPath)"])
        let reply = try await server.request(
            "POST", "/v1/models/flowers/classify", body: try Data(contentsOf: image), headers: ["Content-Type": "image/jpeg"])
        #expect(reply.status == 200, "\(reply.text)")
        #expect((try Self.records(reply).first?["labels"] as? NSArray)?.isEqual(expected) == true, "\(reply.text)")
        // score_threshold is the confidence threshold, below ML Kit's default of 0.5 too.
        let low = try await VisionTasksTool.run([
            "label", "--manifest", export.manifestPath, "--confidence", "0", "--format", "json", image.path,
        ])
        let every = try #require(low.jsonObjects(format: "json").first?["labels"] as? NSArray, "\(low)")
        #expect(every.count > 1, "\(low)")
        let lowered = try await server.request(
            "POST", "/v1/models/flowers/classify?score_threshold=0", body: try Data(contentsOf: image),
            headers: ["Content-Type": "image/jpeg"])
        #expect((try Self.records(lowered).first?["labels"] as? NSArray)?.isEqual(every) == true, "\(lowered.text)")
        let models = try await server.request("GET", "/v1/models").json as? [String: Any]
        #expect((models?["models"] as? [[String: String]]) == [["name": "flowers", "kind": "labeler", "task": "classify"]])
        #expect(await server.terminate() == 0)
    }

}
