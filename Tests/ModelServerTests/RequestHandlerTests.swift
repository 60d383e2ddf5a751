import Foundation
import ImageTasks
import ServedModels
import TasksCommon
import TestSupport
import Testing
import VisionTasks

@testable import ModelServer

/// The server's routes, parameters, limits and errors in process: each test builds a request,
/// calls `RequestHandler` as the daemon does, and reads the status, headers and body. The
/// answers are compared with the library's own (`ImageClassifier`, `ImageEmbedder`).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct RequestHandlerTests {
    /// The library's categories for a photo: (index, score, name), best first.
    static func libraryCategories(
        _ photo: URL, configure: (ImageClassifierOptions) -> Void = { $0.maxResults = 5 }
    ) throws -> [Category] {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = HandlerHarness.mobilenet
        configure(options)
        let result = try ImageClassifier(options: options).classify(image: MPImage(contentsOf: photo))
        return result.classificationResult.classifications[0].categories.map {
            Category(index: $0.index, score: $0.score, name: $0.categoryName)
        }
    }

    struct Category: Equatable {
        let index: Int
        let score: Float
        let name: String?
    }

    /// The first head's categories of a served record (`classify --format json`'s object).
    static func categories(ofRecord record: Any?) throws -> [Category] {
        let object = try #require(record as? [String: Any])
        let head = try #require((object["classifications"] as? [[String: Any]])?.first, "\(object)")
        return try #require(head["categories"] as? [[String: Any]]).map {
            Category(
                index: $0["index"] as? Int ?? -1, score: ($0["score"] as? NSNumber)?.floatValue ?? .nan,
                name: $0["categoryName"] as? String)
        }
    }

    /// The records of a v1 answer (a JSON array).
    static func records(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(response.json as? [[String: Any]], "\(response.status): \(response.text.prefix(300))")
    }

    @Test func classifyRawBodyAndFilesGiveTheLibrarysCategories() throws {
        let handler = try HandlerHarness.handler()
        let raw = handler.handle(
            "POST", "/v1/models/mobilenet/classify", headers: ["Content-Type": "image/jpeg"],
            body: try Data(contentsOf: HandlerHarness.burger))
        #expect(raw.status == 200, "\(raw.text)")
        #expect(raw.header("Server-Timing")?.hasPrefix("inference;dur=") == true)
        let burger = try Self.libraryCategories(HandlerHarness.burger)
        #expect(burger.first?.index == 934 && burger.first?.name == "cheeseburger")
        #expect(try Self.categories(ofRecord: Self.records(raw).first) == burger)
        let form = try handler.post(files: [HandlerHarness.burger, HandlerHarness.sparrow], to: "/v1/models/mobilenet/classify")
        let records = try Self.records(form)
        #expect(records.map { $0["image"] as? String } == ["burger.jpg", "sparrow.jpg"])
        #expect(try records.map(Self.categories(ofRecord:)) == [burger, try Self.libraryCategories(HandlerHarness.sparrow)])
    }

    @Test func inferJSONFormGivesTheLibrarysCategories() throws {
        let handler = try HandlerHarness.handler()
        let reply = handler.handle(
            "POST", "/v2/models/mobilenet/infer", body: try InferBody.json(parameters: ["max_results": 3]))
        #expect(reply.status == 200, "\(reply.text)")
        let json = try #require(reply.json as? [String: Any])
        #expect(json["model_name"] as? String == "mobilenet" && json["model_version"] as? String == "1")
        #expect(json["id"] as? String == "request-1")
        #expect(reply.header("Server-Timing")?.hasPrefix("inference;dur=") == true)
        let output = try InferBody.firstOutput(reply)
        #expect(output["name"] as? String == "classifications" && output["datatype"] as? String == "BYTES")
        #expect(output["shape"] as? [Int] == [2])
        let elements = try #require(output["data"] as? [String])
        let served = try elements.map { try Self.categories(ofRecord: JSONSerialization.jsonObject(with: Data($0.utf8))) }
        let expected = try [HandlerHarness.burger, HandlerHarness.sparrow].map {
            try Self.libraryCategories($0) { $0.maxResults = 3 }
        }
        #expect(served == expected)
    }

    @Test func classificationExtensionGivesScoreIndexLabelStrings() throws {
        let handler = try HandlerHarness.handler()
        let reply = handler.handle(
            "POST", "/v2/models/mobilenet/infer",
            body: try InferBody.json(outputs: [["name": "classifications", "parameters": ["classification": 2]]]))
        let output = try InferBody.firstOutput(reply)
        #expect(output["shape"] as? [Int] == [2, 2])
        let expected = try [HandlerHarness.burger, HandlerHarness.sparrow].flatMap {
            try Self.libraryCategories($0) { $0.maxResults = 2 }.map { "\($0.score):\($0.index):\($0.name ?? "")" }
        }
        #expect(output["data"] as? [String] == expected)
        #expect(expected.first?.hasSuffix(":934:cheeseburger") == true)
    }

    @Test func inferBinaryFormRoundTrips() throws {
        let handler = try HandlerHarness.handler()
        let tensor = BinaryTensor.encode(try [HandlerHarness.burger, HandlerHarness.sparrow].map { try Data(contentsOf: $0) })
        let header = try JSONSerialization.data(withJSONObject: [
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [2], "parameters": ["binary_data_size": tensor.count]]],
            "outputs": [["name": "classifications", "parameters": ["binary_data": true]]],
        ])
        let reply = handler.handle(
            "POST", "/v2/models/mobilenet/infer",
            headers: ["Inference-Header-Content-Length": String(header.count)], body: header + tensor)
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        #expect(reply.header("Content-Type") == "application/octet-stream")
        let length = try #require(reply.header("Inference-Header-Content-Length").flatMap { Int($0) })
        let json = try #require(try JSONSerialization.jsonObject(with: reply.body.prefix(length)) as? [String: Any])
        let output = try #require((json["outputs"] as? [[String: Any]])?.first)
        let size = try #require((output["parameters"] as? [String: Any])?["binary_data_size"] as? Int)
        let binary = Data(reply.body.dropFirst(length))
        #expect(binary.count == size)
        let records = try BinaryTensor.elements(binary, count: 2, input: "classifications")
        let served = try records.map { try Self.categories(ofRecord: JSONSerialization.jsonObject(with: $0)) }
        #expect(
            served == [try Self.libraryCategories(HandlerHarness.burger), try Self.libraryCategories(HandlerHarness.sparrow)])
    }

    @Test func metadataAndHealthRoutes() throws {
        let handler = try HandlerHarness.handler()
        for path in [
            "/v2/health/live", "/v2/health/ready", "/v2/models/mobilenet/ready", "/v2/models/mobilenet/versions/1/ready",
        ] {
            #expect(handler.handle("GET", path).status == 200, "\(path)")
        }
        let server = try #require(handler.handle("GET", "/v2").json as? [String: Any])
        #expect(server["extensions"] as? [String] == ["binary_tensor_data", "classification"])
        #expect(server["name"] as? String == "vision-tasks" && server["version"] as? String == visionTasksVersion)
        let model = try #require(handler.handle("GET", "/v2/models/mobilenet").json as? [String: Any])
        #expect(model["name"] as? String == "mobilenet" && model["platform"] as? String == "tflite_classifier")
        #expect(model["task"] as? String == "classify" && model["versions"] as? [String] == ["1"])
        #expect((model["inputs"] as? [[String: Any]])?.first?["datatype"] as? String == "BYTES")
        #expect((model["inputs"] as? [[String: Any]])?.first?["shape"] as? [Int] == [-1])
        #expect((model["outputs"] as? [[String: Any]])?.first?["shape"] as? [Int] == [-1])
        let list = try #require(handler.handle("GET", "/v1/models").json as? [String: Any])
        #expect(
            list["models"] as? [[String: String]] == [
                ["name": "mobilenet", "kind": "classifier", "task": "classify"],
                ["name": "tiny", "kind": "embedder", "task": "embed"],
                ["name": "extractor", "kind": "embedder", "task": "embed"],
            ])
        #expect(list["videoLimits"] as? [String: Int] == ["maxBytes": 16 * 1024 * 1024, "maxSeconds": 60])
        let page = handler.handle("GET", "/")
        #expect(page.status == 200 && page.text.contains("<title>vision-tasks serve</title>"))
        #expect(!page.text.contains("http://") && !page.text.contains("https://"), "the page loads nothing from elsewhere")
    }

    /// (description, method, path, body, headers, expected status, expected error message)
    static let errorCases: [(String, String, String, Data, [String: String], Int, String)] = [
        ("unknown route", "GET", "/v3/nothing", Data(), [:], 404, "No route /v3/nothing."),
        (
            "unknown model", "POST", "/v2/models/resnet/infer", Data("{}".utf8), [:], 404,
            "Unknown model 'resnet'; this server has mobilenet, tiny, extractor."
        ),
        (
            "wrong method", "GET", "/v2/models/mobilenet/infer", Data(), [:], 405,
            "/v2/models/mobilenet/infer accepts POST, not GET."
        ),
        (
            "empty body", "POST", "/v2/models/mobilenet/infer", Data(), [:], 400,
            "The request body is empty; expected an inference request in JSON."
        ),
        (
            "wrong datatype", "POST", "/v2/models/mobilenet/infer",
            Data(#"{"inputs":[{"name":"image","datatype":"FP32","shape":[1],"data":[1.0]}]}"#.utf8), [:], 400,
            "Input 'image' has datatype FP32; expected BYTES (encoded images)."
        ),
        (
            "max_results 0", "POST", "/v2/models/mobilenet/infer",
            Data(
                #"{"parameters":{"max_results":0},"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"data":["AA=="]}]}"#
                    .utf8),
            [:], 400, "Invalid `max_results` option: value must be != 0."
        ),
        (
            "max_results 0 in the query", "POST", "/v1/models/mobilenet/classify?max_results=0", Data("x".utf8),
            ["Content-Type": "image/jpeg"], 400, "Invalid `max_results` option: value must be != 0."
        ),
        (
            "header length past the body", "POST", "/v2/models/mobilenet/infer", Data("{}".utf8),
            ["Inference-Header-Content-Length": "99"], 400,
            "Header Inference-Header-Content-Length is 99, but the body has 2 bytes."
        ),
        (
            "binary length prefix past the end", "POST", "/v2/models/mobilenet/infer",
            Data(#"{"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"parameters":{"binary_data_size":5}}]}"#.utf8)
                + Data([9, 0, 0, 0, 1]), ["Inference-Header-Content-Length": "96"], 400,
            "Input 'image', element 0: the length prefix says 9 bytes, but 1 remain."
        ),
        (
            "empty image", "POST", "/v1/models/mobilenet/classify", Data(), ["Content-Type": "image/jpeg"], 400,
            "Image 0 is empty."
        ),
        (
            "wrong content type", "POST", "/v1/models/mobilenet/classify", Data("x".utf8), ["Content-Type": "text/plain"], 400,
            "Content-Type is 'text/plain'; send an image (image/jpeg, image/png, image/webp) or multipart/form-data files."
        ),
        (
            "an embedder's classify route", "POST", "/v1/models/tiny/classify", Data("x".utf8),
            ["Content-Type": "image/jpeg"], 404, "Model 'tiny' is an embedder: its route is /v1/models/tiny/embed, not /classify."
        ),
        (
            "classification parameters to an embedder", "POST", "/v2/models/tiny/infer",
            Data(
                #"{"parameters":{"max_results":3},"inputs":[{"name":"image","datatype":"BYTES","shape":[1],"data":["AA=="]}]}"#
                    .utf8), [:], 400,
            "An embedder takes no classification parameters (max_results, score_threshold, category lists, locale)."
        ),
        (
            "an embedder's video", "POST", "/v1/models/extractor/classify-video", Data("x".utf8), [:], 400,
            "Model 'extractor' is an embedder; only classifiers classify videos."
        ),
        (
            "an empty video", "POST", "/v1/models/mobilenet/classify-video", Data(), [:], 400,
            "The request has no video: its body is empty."
        ),
        (
            "a bad job name", "POST", "/v1/models/mobilenet/classify-video?job=a%20b", Data("x".utf8), [:], 400,
            "Parameter 'job' must be 1 to 64 letters, digits, '-' or '_', got 'a b'."
        ),
        ("no such job", "GET", "/v1/videos/clip-1", Data(), [:], 404, "No video named 'clip-1' is being classified."),
        (
            "a body over the limit", "POST", "/v1/models/mobilenet/classify", Data(count: 32 * 1024 * 1024 + 1),
            ["Content-Type": "image/jpeg"], 413, "The request body has 33554433 bytes; the limit is 33554432."
        ),
        (
            "a video over the limit", "POST", "/v1/models/mobilenet/classify-video", Data(count: 16 * 1024 * 1024 + 1), [:],
            413, "The request body has 16777217 bytes; the limit is 16777216."
        ),
    ]

    @Test func badRequestsGetTheirStatusAndMessage() throws {
        let handler = try HandlerHarness.handler()
        for (name, method, target, body, headers, status, message) in Self.errorCases {
            let (path, query) = Self.split(target)
            let reply = handler.handle(method, path, query: query, headers: headers, body: body)
            #expect(reply.status == status, "\(name): \(reply.text)")
            #expect(reply.error == message, "\(name): \(reply.text)")
        }
    }

    /// A path and its query arguments (decoded, as libmicrohttpd gives them).
    static func split(_ target: String) -> (String, [String: String]) {
        guard let components = URLComponents(string: target) else { return (target, [:]) }
        let pairs = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        return (components.path, Dictionary(pairs, uniquingKeysWith: { $1 }))
    }

    @Test func methodNotAllowedListsTheAllowedMethods() throws {
        let handler = try HandlerHarness.handler()
        for (method, path, allowed) in [
            ("OPTIONS", "/v2/health/live", "GET, HEAD"), ("DELETE", "/v2/models/mobilenet", "GET, HEAD"),
            ("GET", "/v2/models/mobilenet/infer", "POST"),
        ] {
            let reply = handler.handle(method, path)
            #expect(reply.status == 405, "\(method) \(path): \(reply.text)")
            #expect(reply.header("Allow") == allowed, "\(method) \(path)")
        }
    }

    @Test func aTruncatedJPEGInABatchFailsTheRequestWithItsIndex() throws {
        let handler = try HandlerHarness.handler()
        let burger = try Data(contentsOf: HandlerHarness.burger)
        let images = [burger, burger.prefix(burger.count / 3)].map { $0.base64EncodedString() }
        let body = try JSONSerialization.data(withJSONObject: [
            "inputs": [["name": "image", "datatype": "BYTES", "shape": [2], "data": images]]
        ])
        let reply = handler.handle("POST", "/v2/models/mobilenet/infer", body: body)
        #expect(reply.status == 400)
        #expect(reply.error?.hasPrefix("Input 'image', element 1: ") == true, "\(reply.text)")
        #expect(handler.handle("POST", "/v2/models/mobilenet/infer", body: try InferBody.json()).status == 200)
    }

    @Test func imagesPerRequestAreLimited() throws {
        var limits = ServerLimits()
        limits.maxImages = 1
        let handler = try HandlerHarness.handler(limits: limits)
        let infer = handler.handle("POST", "/v2/models/mobilenet/infer", body: try InferBody.json())
        #expect(infer.status == 400)
        #expect(infer.error == "Input 'image' has 2 images; at most 1 are allowed per request.", "\(infer.text)")
        let form = try handler.post(files: [HandlerHarness.burger, HandlerHarness.sparrow], to: "/v1/models/mobilenet/classify")
        #expect(form.status == 400)
        #expect(form.error == "The request has 2 images; at most 1 are allowed.", "\(form.text)")
        let none = handler.handle(
            "POST", "/v1/models/mobilenet/classify", headers: ["Content-Type": "multipart/form-data; boundary=b"])
        #expect(none.status == 400 && none.error == "The multipart/form-data body has no file parts.")
    }

    @Test func requestParametersNarrowAsTheClassifierOptionsDo() throws {
        let handler = try HandlerHarness.handler()
        let expected = try Self.libraryCategories(HandlerHarness.burger) {
            $0.categoryAllowlist = ["hotdog", "bagel", "cheeseburger"]
            $0.maxResults = 2
            $0.scoreThreshold = 0.001
        }
        #expect(expected.map(\.name) == ["cheeseburger", "bagel"])
        let photo = try Data(contentsOf: HandlerHarness.burger)
        let query = handler.handle(
            "POST", "/v1/models/mobilenet/classify",
            query: ["category_allowlist": "hotdog,bagel,cheeseburger", "max_results": "2", "score_threshold": "0.001"],
            headers: ["Content-Type": "image/jpeg"], body: photo)
        #expect(try Self.categories(ofRecord: Self.records(query).first) == expected, "\(query.text)")
        let infer = handler.handle(
            "POST", "/v2/models/mobilenet/infer",
            body: try InferBody.json(
                [HandlerHarness.burger],
                parameters: ["category_allowlist": "hotdog,bagel,cheeseburger", "max_results": 2, "score_threshold": 0.001]))
        let element = try #require((try InferBody.firstOutput(infer)["data"] as? [String])?.first)
        #expect(try Self.categories(ofRecord: JSONSerialization.jsonObject(with: Data(element.utf8))) == expected)
        let image = ["Content-Type": "image/jpeg"]
        let locale = handler.handle(
            "POST", "/v1/models/mobilenet/classify", query: ["display_names_locale": "fr"], headers: image, body: photo)
        #expect(locale.status == 400)
        #expect(
            locale.error
                == "Parameter 'display_names_locale' is 'fr', but this server loaded display names for 'en' (serve --locale).")
        let unknown = handler.handle(
            "POST", "/v1/models/mobilenet/classify", query: ["category_allowlist": "unicorn"], headers: image, body: photo)
        #expect(unknown.status == 400)
        #expect(
            unknown.error == "Image 0: None of the names in `category_allowlist` (unicorn) is a category name of the model, "
                + "so every category would be dropped.", "the core's message: \(unknown.text)")
    }

    @Test func busyDrainingAndReservedConnectionsAreRefused() throws {
        var limits = ServerLimits()
        limits.maxRequests = 1
        let handler = try HandlerHarness.handler(limits: limits)
        #expect(handler.metrics.admit(limit: 1), "a request in flight takes the one slot")
        let busy = handler.handle(
            "POST", "/v1/models/mobilenet/classify", headers: ["Content-Type": "image/jpeg"], body: Data("x".utf8))
        #expect(busy.status == 503 && busy.header("Retry-After") == "1")
        #expect(busy.error == "The server is busy: 1 inference requests are in progress.")
        handler.metrics.release()
        let reserved = handler.handle("GET", "/v2", onReservedConnection: true)
        #expect(reserved.status == 503 && reserved.header("Connection") == "close")
        #expect(
            reserved.error == "The server has 512 connections open, its limit (--max-connections); the connections beyond it "
                + "are kept for health probes.")
        for probe in ["/v2/health/live", "/v2/health/ready", "/metrics"] {
            #expect(handler.handle("GET", probe, onReservedConnection: true).status == 200, "\(probe)")
        }
        handler.draining.store(true, ordering: .relaxed)
        let ready = handler.handle("GET", "/v2/health/ready")
        #expect(ready.status == 503 && ready.error == "The server is draining: it is shutting down and takes no new work.")
        #expect(handler.handle("GET", "/v2/health/live").status == 200)
    }

    @Test func metricsCountRequestsByRouteAndStatus() throws {
        let handler = try HandlerHarness.handler()
        _ = handler.handle("POST", "/v2/models/mobilenet/infer", body: try InferBody.json())
        _ = handler.handle("POST", "/v2/models/mobilenet/infer", body: Data("{".utf8))
        let text = handler.handle("GET", "/metrics").text
        for line in [
            "vision_tasks_requests_total{route=\"infer\",status=\"200\"} 1",
            "vision_tasks_requests_total{route=\"infer\",status=\"400\"} 1",
            "vision_tasks_inference_duration_seconds_count{model=\"mobilenet\"} 1",
            "vision_tasks_queue_waiting{model=\"mobilenet\"} 0", "vision_tasks_requests_in_flight 0",
        ] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
    }

    /// A pool of another version: the only one the versions routes accept, and the one reported.
    @Test func aModelsVersionIsReportedAndTheOnlyOneAccepted() throws {
        let classifier = try ServedClassifier(path: HandlerHarness.mobilenet, threads: 1, locale: "en")
        let handler = try HandlerHarness.handler(
            ServingCatalog(pools: [ModelPool(name: "mobilenet", instances: [classifier], version: "7")]))
        let metadata = try #require(handler.handle("GET", "/v2/models/mobilenet").json as? [String: Any])
        #expect(metadata["versions"] as? [String] == ["7"])
        #expect(handler.handle("GET", "/v2/models/mobilenet/versions/7/ready").status == 200)
        let other = handler.handle("GET", "/v2/models/mobilenet/versions/70/ready")
        #expect(other.status == 404)
        #expect(other.error == "Model 'mobilenet' has no version '70'; this server has version 7.")
        let reply = handler.handle("POST", "/v2/models/mobilenet/versions/7/infer", body: try InferBody.json())
        #expect((reply.json as? [String: Any])?["model_version"] as? String == "7", "\(reply.text.prefix(200))")
    }

    /// `GET /v1/models/NAME`: what `inspect` shows first, for the page's model details.
    @Test func modelDetailsSummarizeTheModel() throws {
        let handler = try HandlerHarness.handler()
        let details = try #require(handler.handle("GET", "/v1/models/mobilenet").json as? [String: Any])
        #expect(details["kind"] as? String == "classifier" && details["task"] as? String == "classify")
        let summary = try #require(details["summary"] as? [String: Any])
        #expect(summary["name"] as? String == "MobileNetV1 image classifier (quantized)")
        #expect(summary["servedLocale"] as? String == "en")
        let input = try #require((summary["inputs"] as? [[String: Any]])?.first)
        #expect(input["type"] as? String == "UINT8" && input["shape"] as? [Int] == [1, 224, 224, 3])
        let head = try #require((summary["heads"] as? [[String: Any]])?.first)
        #expect(head["name"] as? String == "probability" && head["categories"] as? Int == 1001 && head["labels"] as? Int == 1001)
        #expect(handler.handle("GET", "/v1/models/nothing").status == 404)
    }
}
