import Foundation
import ImageTasks
import ServedModels
import Synchronization
import TasksCommon

/// Answers requests: routing, the token, limits, and the OIP v2, v1 and page routes.
final class RequestHandler: HTTPExchangeHandler {
    /// The models served.
    let catalog: ServingCatalog
    let limits: ServerLimits
    private let token: BearerToken?
    private let connections: ConnectionStats
    let metrics = Metrics()
    /// The progress of the video uploads being classified.
    let videoJobs = VideoJobs()
    /// Set when SIGTERM starts the drain: readiness fails so that load balancers stop sending,
    /// while every request is still served.
    let draining = Atomic(false)

    init(catalog: ServingCatalog, limits: ServerLimits, token: BearerToken?, connections: ConnectionStats) {
        self.catalog = catalog
        self.limits = limits
        self.token = token
        self.connections = connections
    }

    func admit(_ head: RequestHead, bodyLength: Int?, onReservedConnection: Bool) -> Admission {
        let free = Admission.accept(bodyLimit: 0)
        guard let route = Route(path: head.path) else { return .reject(HTTPError(404, "No route \(head.path).").response) }
        if onReservedConnection, !route.isProbe {
            connections.refusedOnReserveConnection()
            return .reject(
                HTTPError(
                    503,
                    "The server has \(limits.maxConnections) connections open, its limit (--max-connections); "
                        + "the connections beyond it are kept for health probes.",
                    headers: [("Retry-After", "1"), ("Connection", "close")]
                ).response)
        }
        guard head.method == route.method || (head.method == "HEAD" && route.method == "GET") else {
            var response = HTTPError(405, "\(head.path) accepts \(route.method), not \(head.method).").response
            response.headers.append(("Allow", route.method == "GET" ? "GET, HEAD" : route.method))
            return .reject(response)
        }
        if let token, !route.isPublic, !token.accepts(head.header("authorization")) {
            return .reject(
                HTTPError(401, "A valid bearer token is required.", headers: [("WWW-Authenticate", "Bearer")]).response)
        }
        if let model = route.model, catalog.pool(named: model) == nil {
            return .reject(
                HTTPError(404, "Unknown model '\(model)'; this server has \(catalog.names.joined(separator: ", ")).").response)
        }
        if let pool = route.model.flatMap(catalog.pool(named:)), let version = Route.requestedVersion(path: head.path),
            version != pool.version
        {
            return .reject(
                HTTPError(404, "Model '\(pool.name)' has no version '\(version)'; this server has version \(pool.version).")
                    .response)
        }
        guard route.method == "POST" else { return free }
        var bodyLimit = limits.maxBodyBytes
        if case .classifyVideo = route { bodyLimit = limits.videos.maxBytes }
        if let bodyLength, bodyLength > bodyLimit {
            return .reject(
                HTTPError(413, "The request body has \(bodyLength) bytes; the limit is \(bodyLimit).").response)
        }
        // Busy now: not worth reading the body. The slot itself is taken once the body is in, so
        // that a client sending slowly holds a connection, never a place in the queue.
        guard metrics.inFlight < limits.maxRequests else { return .reject(busy.response) }
        return .accept(bodyLimit: bodyLimit)
    }

    private var busy: HTTPError {
        HTTPError(
            503, "The server is busy: \(limits.maxRequests) inference requests are in progress.",
            headers: [("Retry-After", "1")])
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let route = Route(path: request.head.path) else { return HTTPError(404, "No route.").response }
        do throws(HTTPError) {
            guard route.method == "POST" else { return try respond(to: request, route: route) }
            guard metrics.admit(limit: limits.maxRequests) else { throw busy }
            defer { metrics.release() }
            return try respond(to: request, route: route)
        } catch {
            return error.response
        }
    }

    func finished(_ head: RequestHead, status: Int, bytes: Int, seconds: Double) {
        metrics.recordRequest(route: Route(path: head.path)?.label ?? "unknown", status: status, seconds: seconds)
        AccessLog.record(head, status: status, bytes: bytes, seconds: seconds)
    }

    private func respond(to request: HTTPRequest, route: Route) throws(HTTPError) -> HTTPResponse {
        switch route {
        case .page: return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Data(WebPage.html.utf8))
        case .metrics:
            let waiting = catalog.pools.map { ($0.name, $0.waiting) }
            return HTTPResponse(
                status: 200, contentType: "text/plain; version=0.0.4",
                body: Data(metrics.render(waiting: waiting, connections: connections).utf8))
        case .ready where draining.load(ordering: .relaxed):
            return HTTPError(503, "The server is draining: it is shutting down and takes no new work.").response
        case .live, .ready, .modelReady: return .ok
        case .serverMetadata: return try .json(ServerMetadata())
        case .modelList: return try .json(ModelList(catalog, videoLimits: limits.videos))
        case .modelMetadata(let name): return try .json(ModelMetadata(try pool(name)))
        case .infer(let name): return try infer(request, pool: try pool(name))
        case .process(let name, let verb): return try process(request, pool: try pool(name), verb: verb)
        case .classifyVideo(let name): return try classifyVideo(request, pool: try pool(name))
        case .videoProgress(let job): return try videoProgress(job)
        case .modelDetails(let name): return try details(try pool(name))
        }
    }

    /// The pool `admit` found for the route's model.
    private func pool(_ name: String) throws(HTTPError) -> ModelPool {
        guard let pool = catalog.pool(named: name) else { throw HTTPError(404, "Unknown model '\(name)'.") }
        return pool
    }

    /// What `body` returns with one of the pool's instances.
    /// - Throws: `HTTPError` 503 when none came free within the request timeout; what `body` throws.
    func withInstance<Value>(
        of pool: ModelPool, _ body: (any ServedTask) throws(HTTPError) -> Value
    ) throws(HTTPError) -> Value {
        guard let value = try pool.withInstance(timeout: limits.requestTimeoutSeconds, body) else {
            throw HTTPError(
                503, "No instance of model '\(pool.name)' came free within \(limits.requestTimeoutSeconds) s.",
                headers: [("Retry-After", "1")])
        }
        return value
    }

    private func infer(_ request: HTTPRequest, pool: ModelPool) throws(HTTPError) -> HTTPResponse {
        let inference = try InferenceRequest(
            body: request.body, headerLength: request.head.header("inference-header-content-length"),
            maxImages: limits.maxImages)
        let names = inference.images.indices.map { "\(inference.inputName)[\($0)]" }
        var seconds = 0.0
        let results = try process(
            Array(zip(names, inference.images)), parameters: inference.parameters, pool: pool,
            what: "Input '\(inference.inputName)', element", inference: &seconds)
        var response = try InferenceResponse.response(
            model: pool.name, version: pool.version, output: pool.output, request: inference, results: results)
        response.headers.append(Self.serverTiming(seconds))
        return response
    }

    /// `POST /v1/models/NAME/classify` (or `/embed` for an embedder): an `image/*` body, or
    /// multipart form files (parts with a file name); the CLI's JSON object per image, in a JSON array.
    private func process(_ request: HTTPRequest, pool: ModelPool, verb: String) throws(HTTPError) -> HTTPResponse {
        guard verb == pool.kind.verb else {
            throw HTTPError(
                404,
                "Model '\(pool.name)' is \(pool.kind.withArticle): its route is /v1/models/\(pool.name)/\(pool.kind.verb), "
                    + "not /\(verb).")
        }
        let parameters = try HTTPError.mapping { () throws(TasksError) in
            try ParameterParsing.parameters(query: request.head.query)
        }
        let contentType = request.head.header("content-type")?.lowercased() ?? ""
        let images: [(String, Data)]
        if contentType.hasPrefix("multipart/form-data") {
            // Parts without a file name are form fields, not images.
            images = request.files.compactMap { file in file.filename.map { ($0, file.data) } }
        } else if contentType.hasPrefix("image/") || contentType == "application/octet-stream" {
            images = [("body", request.body)]
        } else {
            throw .badRequest(
                "Content-Type is '\(contentType)'; send an image (image/jpeg, image/png, image/webp) or multipart/form-data files."
            )
        }
        guard !images.isEmpty else { throw .badRequest("The multipart/form-data body has no file parts.") }
        guard images.count <= limits.maxImages else {
            throw .badRequest("The request has \(images.count) images; at most \(limits.maxImages) are allowed.")
        }
        var inference = 0.0
        let results = try self.process(images, parameters: parameters, pool: pool, what: "Image", inference: &inference)
        let body = Data("[\(results.map(\.record).joined(separator: ","))]".utf8)
        return HTTPResponse(
            status: 200, contentType: "application/json", body: body, headers: [Self.serverTiming(inference)])
    }

    /// Processes the images with one instance of the pool; the first image that fails fails
    /// the request with its index and the status for its error (`HTTPError.status(for:)`).
    private func process(
        _ images: [(name: String, data: Data)], parameters: RequestParameters, pool: ModelPool, what: String,
        inference: inout Double
    ) throws(HTTPError) -> [ServedImage] {
        let start = ContinuousClock.now
        defer { metrics.recordInference(model: pool.name, seconds: Self.seconds(since: start)) }
        return try withInstance(of: pool) { instance throws(HTTPError) in
            if let problem = instance.problem(with: parameters) { throw .badRequest(problem) }
            var results: [ServedImage] = []
            let served = ContinuousClock.now
            defer { inference = Self.seconds(since: served) }
            for (index, image) in images.enumerated() {
                guard !image.data.isEmpty else { throw .badRequest("\(what) \(index) is empty.") }
                do throws(TasksError) {
                    results.append(try instance.serve(image.data, name: image.name, parameters: parameters))
                } catch {
                    throw HTTPError(error, prefix: "\(what) \(index)")
                }
            }
            return results
        }
    }

    /// `Server-Timing: inference;dur=MS`: the model's time for the request's images, apart from
    /// the network's and the wait for an instance (the web app shows it).
    static func serverTiming(_ seconds: Double) -> (name: String, value: String) {
        ("Server-Timing", String(format: "inference;dur=%.1f", seconds * 1000))
    }

    /// Seconds from `start` to now.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return elapsed / .seconds(1)
    }

}
