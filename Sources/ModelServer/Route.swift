import ImageTasks
import ServedModels

/// The server's routes, matched from a method and path.
enum Route: Equatable {
    case page
    case metrics
    case live
    case ready
    case serverMetadata
    case modelList
    case modelMetadata(String)
    case modelReady(String)
    case infer(String)
    /// `POST /v1/models/NAME/VERB`: the command line's records (VERB: classify or embed).
    case process(String, verb: String)
    /// `POST /v1/models/NAME/classify-video`: a video classified in video running mode.
    case classifyVideo(String)
    /// `GET /v1/models/NAME`: the model's kind, task and `ModelSummary` (the web app's details).
    case modelDetails(String)
    /// `GET /v1/videos/JOB`: the progress of the video upload that carries `?job=JOB`.
    case videoProgress(String)

    /// The label for metrics.
    var label: String {
        switch self {
        case .page: "page"
        case .metrics: "metrics"
        case .live, .ready, .modelReady: "health"
        case .serverMetadata, .modelList, .modelMetadata, .modelDetails: "metadata"
        case .infer: "infer"
        case .process(_, let verb): verb
        case .classifyVideo: "classify-video"
        case .videoProgress: "video-progress"
        }
    }

    /// The method the route answers.
    var method: String {
        switch self {
        case .infer, .process, .classifyVideo: "POST"
        default: "GET"
        }
    }

    /// Routes that need no token: the page (it asks for one) and the health probes.
    var isPublic: Bool { [.page, .live, .ready].contains(self) }

    /// The health probes and metrics: answered even on the connections kept beyond the
    /// connection limit, so that monitoring sees an overloaded server as such.
    var isProbe: Bool { [.live, .ready, .metrics].contains(self) }

    /// The route for a path (`/v2/models/NAME[/versions/V]/...`), or nil for an unknown one.
    init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch parts {
        case [""]: self = .page
        case ["metrics"]: self = .metrics
        case ["v2", "health", "live"]: self = .live
        case ["v2", "health", "ready"]: self = .ready
        case ["v2"]: self = .serverMetadata
        case ["v1", "models"]: self = .modelList
        case let parts where parts.count == 3 && parts[0] == "v1" && parts[1] == "videos": self = .videoProgress(parts[2])
        case let parts where parts.count == 3 && parts[0] == "v1" && parts[1] == "models": self = .modelDetails(parts[2])
        case let parts where parts.count == 4 && parts[0] == "v1" && parts[1] == "models" && parts[3] == "classify-video":
            self = .classifyVideo(parts[2])
        case let parts where parts.count >= 3 && parts[0] == "v1" && parts[1] == "models":
            guard parts.count == 4, Self.verbs.contains(parts[3]) else { return nil }
            self = .process(parts[2], verb: parts[3])
        case let parts where parts.count >= 3 && parts[0] == "v2" && parts[1] == "models":
            var rest = Array(parts.dropFirst(3))
            // Any version parses; the handler answers 404 for one the model does not have.
            if rest.count >= 2, rest[0] == "versions" {
                guard !rest[1].isEmpty else { return nil }
                rest.removeFirst(2)
            }
            switch rest {
            case []: self = .modelMetadata(parts[2])
            case ["ready"]: self = .modelReady(parts[2])
            case ["infer"]: self = .infer(parts[2])
            default: return nil
            }
        default: return nil
        }
    }

    /// The version a `/v2/models/NAME/versions/V/...` path asks for, or nil when it names none.
    static func requestedVersion(path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count >= 5, parts.prefix(2).elementsEqual(["v2", "models"]), parts.dropFirst(3).first == "versions" else {
            return nil
        }
        return String(parts.dropFirst(4).first ?? "")
    }

    /// The verbs of the v1 routes: a model answers the one of its kind (`ServedTaskKind.verb`).
    static let verbs = ServedTaskKind.verbs

    /// The model the route is about, if any.
    var model: String? {
        switch self {
        case .modelMetadata(let name), .modelReady(let name), .infer(let name), .process(let name, _),
            .classifyVideo(let name), .modelDetails(let name):
            name
        default: nil
        }
    }
}
