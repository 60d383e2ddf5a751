import Foundation
import TestSupport
import Testing

/// `vision-tasks serve` started on a free loopback port: the OIP v2 and v1 routes against the
/// CLI's own answers, errors, limits, the token and SIGTERM.
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
    static func jsonInferRequest(outputs: [[String: Any]]? = nil, parameters: [String: Any] = [:]) throws -> Data {
        let images = try [burger, sparrow].map { try Data(contentsOf: $0).base64EncodedString() }
        var request: [String: Any] = [
            "id": "request-1", "parameters": parameters,
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [2], "data": images]],
        ]
        if let outputs { request["outputs"] = outputs }
        return try JSONSerialization.data(withJSONObject: request)
    }

    @Test func inferJSONFormGivesTheCLIClassifications() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let expected = try await Self.cliClassifications(maxResults: 3)
        let reply = try await server.request(
            "POST", "/v2/models/mobilenet/infer", body: try Self.jsonInferRequest(parameters: ["max_results": 3]))
        #expect(reply.status == 200, "\(reply.text)")
        let json = try #require(reply.json as? [String: Any])
        #expect(json["model_name"] as? String == "mobilenet")
        #expect(json["id"] as? String == "request-1")
        let output = try #require((json["outputs"] as? [[String: Any]])?.first)
        #expect(output["name"] as? String == "classifications")
        #expect(output["datatype"] as? String == "BYTES")
        #expect(output["shape"] as? [Int] == [2])
        let elements = try #require(output["data"] as? [String])
        for (element, classifications) in zip(elements, expected) {
            let record = try JSONSerialization.jsonObject(with: Data(element.utf8)) as? [String: Any]
            #expect((record?["classifications"] as? NSArray)?.isEqual(classifications) == true, "\(element)")
        }
        #expect(await server.terminate() == 0)
    }

    @Test func classificationExtensionGivesScoreIndexLabelStrings() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let expected = try await Self.cliClassifications(maxResults: 2)
        let reply = try await server.request(
            "POST", "/v2/models/mobilenet/infer",
            body: try Self.jsonInferRequest(outputs: [["name": "classifications", "parameters": ["classification": 2]]]))
        #expect(reply.status == 200, "\(reply.text)")
        let output = try #require(((reply.json as? [String: Any])?["outputs"] as? [[String: Any]])?.first)
        #expect(output["shape"] as? [Int] == [2, 2])
        let strings = expected.flatMap { classifications in
            ((classifications.firstObject as? [String: Any])?["categories"] as? [[String: Any]] ?? []).map {
                "\(($0["score"] as? NSNumber)?.floatValue ?? .nan):\($0["index"] as? Int ?? -1):\($0["categoryName"] as? String ?? "")"
            }
        }
        #expect(output["data"] as? [String] == strings)
        #expect(strings.first?.hasSuffix(":934:cheeseburger") == true)
        #expect(await server.terminate() == 0)
    }

    /// A binary BYTES tensor: each element a 4-byte little-endian length and its bytes.
    static func binaryElements(_ elements: [Data]) -> Data {
        var data = Data()
        for element in elements {
            withUnsafeBytes(of: UInt32(element.count).littleEndian) { data.append(contentsOf: $0) }
            data.append(element)
        }
        return data
    }

    @Test func inferBinaryFormRoundTrips() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let expected = try await Self.cliClassifications()
        let tensor = Self.binaryElements(try [Self.burger, Self.sparrow].map { try Data(contentsOf: $0) })
        let header = try JSONSerialization.data(withJSONObject: [
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [2], "parameters": ["binary_data_size": tensor.count]]],
            "outputs": [["name": "classifications", "parameters": ["binary_data": true]]],
        ])
        let reply = try await server.request(
            "POST", "/v2/models/mobilenet/infer", body: header + tensor,
            headers: ["Inference-Header-Content-Length": String(header.count), "Content-Type": "application/octet-stream"])
        #expect(reply.status == 200, "\(reply.text)")
        let length = try #require(reply.header("Inference-Header-Content-Length").flatMap { Int($0) })
        let json = try #require(try JSONSerialization.jsonObject(with: reply.body.prefix(length)) as? [String: Any])
        let output = try #require((json["outputs"] as? [[String: Any]])?.first)
        let size = try #require((output["parameters"] as? [String: Any])?["binary_data_size"] as? Int)
        let binary = reply.body.dropFirst(length)
        #expect(binary.count == size)
        var position = binary.startIndex
        for classifications in expected {
            let count = binary[position..<position + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            let record = try JSONSerialization.jsonObject(with: binary[position + 4..<position + 4 + count]) as? [String: Any]
            #expect((record?["classifications"] as? NSArray)?.isEqual(classifications) == true)
            position += 4 + count
        }
        #expect(position == binary.endIndex)
        #expect(await server.terminate() == 0)
    }

    @Test func metadataAndHealthRoutes() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        for path in [
            "/v2/health/live", "/v2/health/ready", "/v2/models/mobilenet/ready", "/v2/models/mobilenet/versions/1/ready",
        ] {
            #expect(try await server.request("GET", path).status == 200, "\(path)")
        }
        let metadata = try #require(try await server.request("GET", "/v2").json as? [String: Any])
        #expect(metadata["extensions"] as? [String] == ["binary_tensor_data", "classification"])
        #expect(metadata["version"] as? String == VersionTests.toolVersion, "the version `vision-tasks --version` prints")
        let model = try #require(try await server.request("GET", "/v2/models/mobilenet").json as? [String: Any])
        #expect(model["name"] as? String == "mobilenet")
        #expect((model["inputs"] as? [[String: Any]])?.first?["datatype"] as? String == "BYTES")
        #expect((model["inputs"] as? [[String: Any]])?.first?["shape"] as? [Int] == [-1])
        let page = try await server.request("GET", "/")
        #expect(page.status == 200)
        #expect(page.text.contains("<title>vision-tasks serve</title>"))
        #expect(!page.text.contains("http://") && !page.text.contains("https://"), "the page loads nothing from elsewhere")
        #expect(await server.terminate() == 0)
    }

    /// (description, method, path, body, headers, expected status, expected words in the error)
    static let errorCases: [(String, String, String, Data, [String: String], Int, String)] = [
        ("unknown route", "GET", "/v3/nothing", Data(), [:], 404, "No route /v3/nothing"),
        ("unknown model", "POST", "/v2/models/resnet/infer", Data("{}".utf8), [:], 404, "Unknown model 'resnet'"),
        ("wrong method", "GET", "/v2/models/mobilenet/infer", Data(), [:], 405, "accepts POST, not GET"),
        // A decoded %00 would end the path the server sees at "/v2/models/mobilenet".
        ("NUL in path", "GET", "/v2/models/mobilenet%00x/ready", Data(), [:], 404, "Unknown model 'mobilenet%00x'"),
        ("empty body", "POST", "/v2/models/mobilenet/infer", Data(), [:], 400, "body is empty"),
        ("not JSON", "POST", "/v2/models/mobilenet/infer", Data("{oops".utf8), [:], 400, "The request body is not valid JSON: "),
        (
            "wrong datatype", "POST", "/v2/models/mobilenet/infer",
            Data(#"{"inputs":[{"name":"image","datatype":"FP32","shape":[1],"data":[1.0]}]}"#.utf8), [:], 400,
            "datatype FP32; expected BYTES"
        ),
        (
            "wrong shape", "POST", "/v2/models/mobilenet/infer",
            Data(#"{"inputs":[{"name":"image","datatype":"BYTES","shape":[1,224],"data":["AA=="]}]}"#.utf8), [:], 400,
            "shape [1,224]"
        ),
        (
            "element count", "POST", "/v2/models/mobilenet/infer",
            Data(#"{"inputs":[{"name":"image","datatype":"BYTES","shape":[2],"data":["AA=="]}]}"#.utf8), [:], 400,
            "shape [2] but 1 elements"
        ),
        (
            "not base64", "POST", "/v2/models/mobilenet/infer",
            Data(##"{"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"data":["#"]}]}"##.utf8), [:], 400,
            "element 0: expected a base64 string"
        ),
        (
            "max_results 0", "POST", "/v2/models/mobilenet/infer",
            Data(
                #"{"parameters":{"max_results":0},"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"data":["AA=="]}]}"#
                    .utf8),
            [:], 400, "Invalid `max_results` option: value must be != 0."
        ),
        (
            "header length past the body", "POST", "/v2/models/mobilenet/infer", Data("{}".utf8),
            ["Inference-Header-Content-Length": "99"], 400, "Inference-Header-Content-Length is 99"
        ),
        (
            "binary length prefix past the end", "POST", "/v2/models/mobilenet/infer",
            Data(#"{"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"parameters":{"binary_data_size":5}}]}"#.utf8)
                + Data([9, 0, 0, 0, 1]), ["Inference-Header-Content-Length": "96"], 400, "length prefix says 9 bytes"
        ),
        ("empty image", "POST", "/v1/models/mobilenet/classify", Data(), ["Content-Type": "image/jpeg"], 400, "Image 0 is empty"),
        (
            "form without files", "POST", "/v1/models/mobilenet/classify",
            Data("--bb\r\nContent-Disposition: form-data; name=\"max_results\"\r\n\r\n3\r\n--bb--\r\n".utf8),
            ["Content-Type": "multipart/form-data; boundary=bb"], 400, "has no file parts"
        ),
        (
            "wrong content type", "POST", "/v1/models/mobilenet/classify", Data("x".utf8), ["Content-Type": "text/plain"], 400,
            "Content-Type is 'text/plain'"
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

    @Test func methodNotAllowedListsTheAllowedMethods() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        for (method, path, allowed) in [
            ("OPTIONS", "/v2/health/live", "GET, HEAD"), ("DELETE", "/v2/models/mobilenet", "GET, HEAD"),
            ("GET", "/v2/models/mobilenet/infer", "POST"),
        ] {
            let reply = try await server.request(method, path)
            #expect(reply.status == 405, "\(method) \(path): \(reply.text)")
            #expect(reply.header("Allow") == allowed, "\(method) \(path): \(reply.headers)")
        }
        #expect(await server.terminate() == 0)
    }

    @Test func aTruncatedJPEGInABatchFailsTheRequestWithItsIndex() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let burger = try Data(contentsOf: Self.burger)
        let images = [burger, burger.prefix(burger.count / 3)].map { $0.base64EncodedString() }
        let body = try JSONSerialization.data(withJSONObject: [
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [2], "data": images]]
        ])
        let reply = try await server.request("POST", "/v2/models/mobilenet/infer", body: body)
        #expect(reply.status == 400)
        #expect(reply.error?.hasPrefix("Input 'image', element 1: ") == true, "\(reply.text)")
        // The server lives on.
        let next = try await server.request("POST", "/v2/models/mobilenet/infer", body: try Self.jsonInferRequest())
        #expect(next.status == 200)
        #expect(await server.terminate() == 0)
    }

    @Test func imagesPerRequestAreLimited() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)", "--max-images", "1"])
        let infer = try await server.request("POST", "/v2/models/mobilenet/infer", body: try Self.jsonInferRequest())
        #expect(infer.status == 400)
        #expect(infer.error == "Input 'image' has 2 images; at most 1 are allowed per request.", "\(infer.text)")
        let (body, boundary) = Self.multipart([("burger.jpg", Self.burger), ("sparrow.jpg", Self.sparrow)])
        let form = try await server.request(
            "POST", "/v1/models/mobilenet/classify", body: body,
            headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
        #expect(form.status == 400)
        #expect(form.error == "The request has 2 images; at most 1 are allowed.", "\(form.text)")
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

    @Test func requestParametersNarrowAsTheCLIOptionsDo() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        let cli = try await VisionTasksTool.run([
            "classify", "--model", ServerProcess.mobilenet, "--allow", "hotdog", "--allow", "bagel", "--allow", "cheeseburger",
            "--max-results", "2", "--score-threshold", "0.001", "--format", "json", Self.burger.path,
        ])
        let expected = try #require(cli.jsonObjects(format: "json").first?["classifications"] as? NSArray)
        let query = try await server.request(
            "POST",
            "/v1/models/mobilenet/classify?category_allowlist=hotdog,bagel,cheeseburger&max_results=2&score_threshold=0.001",
            body: try Data(contentsOf: Self.burger), headers: ["Content-Type": "image/jpeg"])
        #expect((try Self.records(query).first?["classifications"] as? NSArray)?.isEqual(expected) == true, "\(query.text)")
        let burger = try Data(contentsOf: Self.burger).base64EncodedString()
        let body = try JSONSerialization.data(withJSONObject: [
            "parameters": ["category_allowlist": "hotdog,bagel,cheeseburger", "max_results": 2, "score_threshold": 0.001],
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [1], "data": [burger]]],
        ])
        let infer = try await server.request("POST", "/v2/models/mobilenet/infer", body: body)
        let element = try #require(
            (((infer.json as? [String: Any])?["outputs"] as? [[String: Any]])?.first?["data"] as? [String])?.first,
            "\(infer.text)")
        let record = try JSONSerialization.jsonObject(with: Data(element.utf8)) as? [String: Any]
        #expect((record?["classifications"] as? NSArray)?.isEqual(expected) == true, "\(element)")
        let locale = try await server.request(
            "POST", "/v1/models/mobilenet/classify?display_names_locale=fr", body: try Data(contentsOf: Self.burger),
            headers: ["Content-Type": "image/jpeg"])
        #expect(locale.status == 400)
        #expect(locale.error?.contains("'display_names_locale' is 'fr'") == true, "\(locale.text)")
        let unknown = try await server.request(
            "POST", "/v1/models/mobilenet/classify?category_allowlist=unicorn", body: try Data(contentsOf: Self.burger),
            headers: ["Content-Type": "image/jpeg"])
        #expect(unknown.status == 400)
        #expect(
            unknown.error == "Image 0: None of the names in `category_allowlist` (unicorn) is a category name of the model, "
                + "so every category would be dropped.", "\(unknown.text)")
        let misspelt = try await server.request(
            "POST", "/v1/models/mobilenet/classify?max_result=1", body: try Data(contentsOf: Self.burger),
            headers: ["Content-Type": "image/jpeg"])
        #expect(misspelt.status == 400)
        #expect(
            misspelt.error == "Unknown query argument 'max_result'; the route takes max_results, score_threshold, "
                + "category_allowlist, category_denylist, display_names_locale.", "\(misspelt.text)")
        #expect(await server.terminate() == 0)
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

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)"])
        _ = try await server.request("POST", "/v2/models/mobilenet/infer", body: try Self.jsonInferRequest())
        _ = try await server.request("POST", "/v2/models/mobilenet/infer", body: Data("{".utf8))
        // A request is counted when its response has gone out, which may be just after the client has it.
        let expected = [
            "vision_tasks_requests_total{route=\"infer\",status=\"200\"} 1",
            "vision_tasks_requests_total{route=\"infer\",status=\"400\"} 1",
            "vision_tasks_inference_duration_seconds_count{model=\"mobilenet\"} 1",
        ]
        var text = ""
        _ = try await Waiting.poll(safetyNet: 120) {
            text = try await server.request("GET", "/metrics").text
            return expected.allSatisfy(text.contains)
        }
        for line in expected { #expect(text.contains(line), "\(text)") }
        #expect(text.contains("vision_tasks_queue_waiting{model=\"mobilenet\"} 0"))
        #expect(await server.terminate() == 0)
    }
}
