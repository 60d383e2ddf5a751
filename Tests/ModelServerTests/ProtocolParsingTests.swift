import Foundation
import ImageTasks
import ServedModels
import Testing

@testable import ModelServer

/// The server's parsing without a socket: routes, binary BYTES tensors, OIP requests and
/// parameters, the token comparison.
struct ProtocolParsingTests {
    @Test(arguments: [
        ("/", Route.page), ("/metrics", .metrics), ("/v2/health/live", .live), ("/v2/health/ready", .ready),
        ("/v2", .serverMetadata), ("/v1/models", .modelList), ("/v2/models/m", .modelMetadata("m")),
        ("/v2/models/m/versions/1", .modelMetadata("m")), ("/v2/models/m/ready", .modelReady("m")),
        ("/v2/models/m/versions/1/ready", .modelReady("m")), ("/v2/models/m/infer", .infer("m")),
        ("/v2/models/m/versions/1/infer", .infer("m")), ("/v1/models/m/classify", .process("m", verb: "classify")),
        ("/v1/models/m/embed", .process("m", verb: "embed")), ("/v1/models/m", .modelDetails("m")),
        // Any version routes; the handler answers 404 for one the model does not have.
        ("/v2/models/m/versions/2/infer", .infer("m")), ("/v2/models/m/versions/99/ready", .modelReady("m")),
    ])
    func routes(path: String, route: Route) {
        #expect(Route(path: path) == route)
    }

    @Test(arguments: [
        "/v3", "/v2/models", "/v2/models/m/explain", "/v1/models/m/explain", "/v1/models/m/classify/x", "//", "/index.html",
        "/v2/models/m/versions//infer", "/v2/models/m/versions/1/explain",
    ])
    func unknownPaths(path: String) {
        #expect(Route(path: path) == nil)
    }

    @Test(arguments: [
        ("/v2/models/m/versions/7/infer", "7"), ("/v2/models/m/versions/1", "1"), ("/v2/models/m/infer", nil),
        ("/v2/models/m", nil), ("/v1/models/m/classify", nil), ("/v2/health/ready", nil),
    ])
    func requestedVersion(path: String, version: String?) {
        #expect(Route.requestedVersion(path: path) == version)
    }

    @Test func binaryBytesTensorRoundTrips() throws {
        let elements = [Data(), Data([1, 2, 3]), Data(repeating: 7, count: 300)]
        let encoded = BinaryTensor.encode(elements)
        #expect(encoded.prefix(4) == Data([0, 0, 0, 0]))
        #expect(encoded.dropFirst(4).prefix(4) == Data([3, 0, 0, 0]))
        #expect(encoded.dropFirst(11).prefix(4) == Data([44, 1, 0, 0]))  // 300 little-endian
        #expect(try BinaryTensor.elements(encoded, count: 3, input: "image") == elements)
    }

    @Test(arguments: [
        (Data([1, 0]), "element 0: the binary data ends inside a length prefix"),
        (Data([5, 0, 0, 0, 1, 2]), "element 0: the length prefix says 5 bytes, but 2 remain"),
        (Data([0, 0, 0, 0, 1, 0, 0]), "element 1: the binary data ends inside a length prefix"),
    ])
    func truncatedBinaryTensors(data: Data, message: String) {
        #expect(throws: HTTPError.self) { try BinaryTensor.elements(data, count: 2, input: "image") }
        do {
            _ = try BinaryTensor.elements(data, count: 2, input: "image")
        } catch {
            #expect(error.status == 400)
            #expect(error.message == "Input 'image', \(message).")
        }
    }

    /// Millions of zero-length elements declared as two: refused at the third, none built beyond.
    @Test func binaryElementsBeyondTheShapeAreRefusedAtOnce() {
        let flood = Data(count: 32 << 20)  // 8 Mi zero-length elements
        let error = #expect(throws: HTTPError.self) { try BinaryTensor.elements(flood, count: 2, input: "image") }
        #expect(error?.status == 400)
        #expect(
            error?.message == "Input 'image' has shape [2], but more elements follow in the binary data "
                + "(33554424 bytes after element 1).")
    }

    /// A header length that cuts the JSON names the header and its value.
    @Test(arguments: [-1, 1])
    func headerLengthThatMissesTheJSONIsNamed(offset: Int) {
        let header = Data(#"{"inputs":[{"name":"x","datatype":"BYTES","shape":[1],"parameters":{"binary_data_size":6}}]}"#.utf8)
        let body = header + BinaryTensor.encode([Data([0xFF, 0xD8])])
        let length = String(header.count + offset)
        let error = #expect(throws: HTTPError.self) {
            try InferenceRequest(body: body, headerLength: length, maxImages: 8)
        }
        #expect(
            error?.message == "The body's first \(header.count + offset) bytes (header Inference-Header-Content-Length: "
                + "\(length)) are not a JSON object: the length must be that of the JSON inference request exactly.")
    }

    @Test func headerLengthMayHaveSurroundingSpaces() throws {
        let tensor = BinaryTensor.encode([Data([0xFF, 0xD8])])
        let header = Data(
            #"{"inputs":[{"name":"x","datatype":"BYTES","shape":[1],"parameters":{"binary_data_size":\#(tensor.count)}}]}"#.utf8)
        let request = try InferenceRequest(body: header + tensor, headerLength: " \(header.count)", maxImages: 8)
        #expect(request.images == [Data([0xFF, 0xD8])])
    }

    @Test func binaryRequestSplitsAtTheHeaderLength() throws {
        let tensor = BinaryTensor.encode([Data([0xFF, 0xD8]), Data([0x89, 0x50])])
        let header = Data(
            #"{"id":"7","parameters":{"max_results":2,"category_denylist":"a,b","binary_data_output":true},"inputs":[{"name":"x","datatype":"BYTES","shape":[2],"parameters":{"binary_data_size":\#(tensor.count)}}],"outputs":[{"name":"classifications","parameters":{"classification":3}}]}"#
                .utf8)
        let request = try InferenceRequest(body: header + tensor, headerLength: String(header.count), maxImages: 8)
        #expect(request.id == "7")
        #expect(request.inputName == "x")
        #expect(request.images == [Data([0xFF, 0xD8]), Data([0x89, 0x50])])
        #expect(request.parameters.maxResults == 2)
        #expect(request.parameters.categoryDenylist == ["a", "b"])
        #expect(request.binaryOutput)
        #expect(request.outputs.map(\.classification) == [3])
    }

    /// The classification extension's output for two images, one with two categories left and
    /// one with one, asking for K.
    private func classificationOutput(k: Int) throws -> [String: Any] {
        let request = try InferenceRequest(
            body: Data(
                #"{"inputs":[{"name":"image","datatype":"BYTES","shape":[2],"data":["AA==","AA=="]}],"outputs":[{"name":"classifications","parameters":{"classification":\#(k)}}]}"#
                    .utf8), headerLength: nil, maxImages: 8)
        let cat = RankedCategory(score: 0.5, index: 3, label: "cat")
        let dog = RankedCategory(score: 0.25, index: 4, label: "dog")
        let results = [
            ServedImage(record: "{}", ranked: [cat, dog]),
            ServedImage(record: "{}", ranked: [cat]),
        ]
        let response = try InferenceResponse.response(
            model: "m", version: "1", output: .records, request: request, results: results)
        let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        return try #require((json["outputs"] as? [[String: Any]])?.first)
    }

    @Test func classificationOutputPadsShortRows() throws {
        let output = try classificationOutput(k: 2)
        #expect(output["shape"] as? [Int] == [2, 2])
        #expect(output["data"] as? [String] == ["0.5:3:cat", "0.25:4:dog", "0.5:3:cat", ""])
    }

    /// A K far beyond the categories must not make the server build K strings per image.
    @Test func classificationCountIsCappedAtTheCategoriesKept() throws {
        let output = try classificationOutput(k: 1_000_000_000)
        #expect(output["shape"] as? [Int] == [2, 2])
        #expect(output["data"] as? [String] == ["0.5:3:cat", "0.25:4:dog", "0.5:3:cat", ""])
    }

    /// JSONSerialization's booleans pass `as? Int`; a request must not get `true` taken as 1.
    @Test(arguments: [
        (
            #""shape":[true],"data":["AA=="]"#, "", "",
            "Input 'image' has shape [true]; expected [B] with B >= 1 images."
        ),
        (
            #""shape":[1],"data":["AA=="]"#, #","parameters":{"binary_data_output":"yes"}"#, "",
            "Parameter 'binary_data_output' must be true or false, got yes."
        ),
        (
            #""shape":[1],"data":["AA=="]"#, "", #","outputs":[{"name":"classifications","parameters":{"classification":true}}]"#,
            "Output 'classifications': parameter 'classification' must be an integer >= 1, got true."
        ),
        (
            #""shape":[1],"data":["AA=="]"#, "", #","outputs":[{"name":"classifications","parameters":{"binary_data":1}}]"#,
            "Output 'classifications': parameter 'binary_data' must be true or false, got 1."
        ),
        (
            #""shape":[1],"parameters":{"binary_data_size":true}"#, "", "",
            "Input 'image' has binary_data_size true; expected a number of bytes."
        ),
    ])
    func booleansAndNumbersAreNotMixedUp(input: String, parameters: String, outputs: String, message: String) {
        let body = #"{"inputs":[{"name":"image","datatype":"BYTES",\#(input)}]\#(parameters)\#(outputs)}"#
        do {
            _ = try InferenceRequest(body: Data(body.utf8), headerLength: nil, maxImages: 8)
            Issue.record("accepted \(body)")
        } catch {
            #expect(error.status == 400)
            #expect(error.message == message)
        }
    }

    @Test(arguments: [
        ("localhost", true), ("127.0.0.1", true), ("127.1.2.3", true), ("::1", true), ("0:0:0:0:0:0:0:1", true),
        ("0.0.0.0", false), ("::", false), ("10.0.0.1", false), ("127.example.com", false), ("127.0.0.1.nip.io", false),
        ("::ffff:127.0.0.1", false), ("", false),
    ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(InferenceServer.isLoopback(host) == loopback)
    }

    @Test func theTokenMustMatchExactly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token")
        try Data("  abc123  \nignored\n".utf8).write(to: file)
        let token = try BearerToken(file: file.path)
        // The scheme is case-insensitive (RFC 7235), as clients and proxies may send it.
        for right in ["Bearer abc123", "bearer abc123", "BEARER abc123", "Bearer  abc123"] {
            #expect(token.accepts(right), "\(right)")
        }
        for wrong in [nil, "", "Bearer abc12", "Bearer abc1234", "Bearer abc124", "Basic abc123", "abc123", "Bearer", "Bearer "] {
            #expect(!token.accepts(wrong), "\(String(describing: wrong))")
        }
        // The first line holds the token, as documented: a blank first line is not skipped.
        for empty in ["", "\n", "  \nabc123\n"] {
            try Data(empty.utf8).write(to: file)
            #expect(throws: ServerStartError.self) { try BearerToken(file: file.path) }
        }
    }
}
