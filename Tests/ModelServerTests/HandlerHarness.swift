import Foundation
import ImageTasks
import ServedModels
import TasksCommon
import TestSupport
import Testing

@testable import ModelServer

/// The served models of the in-process tests, and a request handler over them: hummingbird's
/// test-router pattern, without a socket (build a request, call the handler, read the response).
enum HandlerHarness {
    static let mobilenet = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
    static let embedder = TestData.model("mobilenet_v2_035_96_embedder_with_metadata.tflite").path
    static let extractor = TestData.model("mobilenet_v1_1.0_224_quant_embedding_extractor.tflite").path
    static let burger = TestData.image("burger.jpg")
    static let sparrow = TestData.image("sparrow.jpg")

    /// "mobilenet" (a classifier), "tiny" (an embedder by its metadata) and "extractor" (an
    /// embedder by `--task embed`), loaded once for every test.
    static let catalog = Result { () throws(TasksError) in
        try ServingCatalog(
            [
                ServedModelSpec(name: "mobilenet", source: .model(path: mobilenet), workers: 2),
                ServedModelSpec(name: "tiny", source: .model(path: embedder), workers: 1),
                ServedModelSpec(name: "extractor", source: .model(path: extractor), task: .embed, workers: 1),
            ], options: ServingCatalog.Options())
    }

    /// A handler of its own (metrics, jobs) over `catalog`, or over the one given.
    static func handler(
        _ catalog: ServingCatalog? = nil, limits: ServerLimits = ServerLimits(), token: BearerToken? = nil
    ) throws -> RequestHandler {
        RequestHandler(
            catalog: try catalog ?? HandlerHarness.catalog.get(), limits: limits, token: token,
            connections: ConnectionStats())
    }
}

/// A response as a test reads it.
struct TestResponse {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: Any? { try? JSONSerialization.jsonObject(with: body) }
    /// `{"error": message}`'s message.
    var error: String? { (json as? [String: Any])?["error"] as? String }
    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}

extension RequestHandler {
    /// The daemon's sequence for one request whose body came whole with a Content-Length:
    /// `admit`, then (when admitted) `respond`, then `finished`.
    func handle(
        _ method: String, _ path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: Data = Data(), files: [FormFile] = [], onReservedConnection: Bool = false
    ) -> TestResponse {
        let head = RequestHead(
            method: method, path: path, query: query,
            headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) }), client: "127.0.0.1")
        let response: HTTPResponse
        switch admit(head, bodyLength: body.count, onReservedConnection: onReservedConnection) {
        case .reject(let rejected): response = rejected
        case .accept: response = respond(to: HTTPRequest(head: head, body: body, files: files))
        }
        finished(head, status: response.status, bytes: response.body.count, seconds: 0.001)
        return TestResponse(status: response.status, headers: response.headers, body: response.body)
    }

    /// `POST /v1/models/NAME/VERB` with the photos as multipart files, as the daemon parses them.
    func post(files photos: [URL], to path: String, query: [String: String] = [:]) throws -> TestResponse {
        let files = try photos.enumerated().map { index, url in
            FormFile(field: "file\(index)", filename: url.lastPathComponent, data: try Data(contentsOf: url))
        }
        return handle(
            "POST", path, query: query, headers: ["Content-Type": "multipart/form-data; boundary=b"], files: files)
    }
}

/// OIP v2 request bodies.
enum InferBody {
    /// The JSON form (base64 elements) of the photos.
    static func json(
        _ photos: [URL] = [HandlerHarness.burger, HandlerHarness.sparrow], outputs: [[String: Any]]? = nil,
        parameters: [String: Any] = [:]
    ) throws -> Data {
        let images = try photos.map { try Data(contentsOf: $0).base64EncodedString() }
        var request: [String: Any] = [
            "id": "request-1", "parameters": parameters,
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [images.count], "data": images]],
        ]
        if let outputs { request["outputs"] = outputs }
        return try JSONSerialization.data(withJSONObject: request)
    }

    /// The first output of an infer answer.
    static func firstOutput(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(
            ((response.json as? [String: Any])?["outputs"] as? [[String: Any]])?.first, "\(response.text.prefix(300))",
            sourceLocation: sourceLocation)
    }
}
