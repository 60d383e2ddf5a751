import ImageTasks
import ServedModels
import TasksCommon

/// `GET /v2`: OIP server metadata.
struct ServerMetadata: Encodable {
    let name = "vision-tasks"
    /// `vision-tasks --version`'s.
    let version = visionTasksVersion
    let extensions = ["binary_tensor_data", "classification"]
}

/// `GET /v1/models`: every model's name, kind and task (its v1 verb), and the video upload limits.
struct ModelList: Encodable {
    struct Entry: Encodable {
        let name: String
        let kind: ServedTaskKind
        let task: String
    }

    let models: [Entry]
    let videoLimits: [String: Int]

    init(_ catalog: ServingCatalog, videoLimits: VideoUploadLimits) {
        models = catalog.pools.map { Entry(name: $0.name, kind: $0.kind, task: $0.kind.verb) }
        self.videoLimits = videoLimits.json
    }
}

/// `GET /v2/models/NAME`: OIP model metadata, and `task`: "classify" or "embed" (what
/// `/v1/models/NAME/TASK` does).
struct ModelMetadata: Encodable {
    /// An input or output: name, OIP datatype and shape (-1: any size).
    struct Tensor: Encodable {
        let name: String
        let datatype: String
        let shape: [Int]
    }

    let name: String
    let versions: [String]
    /// `tflite_classifier`, `tflite_labeler` or `tflite_embedder`.
    let platform: String
    let task: String
    let inputs = [Tensor(name: "image", datatype: "BYTES", shape: [-1])]
    let outputs: [Tensor]

    init(_ pool: ModelPool) {
        name = pool.name
        versions = [pool.version]
        platform = "tflite_\(pool.kind.rawValue)"
        task = pool.kind.verb
        let output = pool.output
        outputs = [Tensor(name: output.name, datatype: output.datatype, shape: output.width.map { [-1, $0] } ?? [-1])]
    }
}

/// `GET /v1/models/NAME`: the model's kind, task and summary (`ModelSummary`, null for a labeler).
struct ModelDetailsAnswer: Encodable {
    let name: String
    let kind: ServedTaskKind
    let task: String
    let summary: ModelSummary?
}

/// `GET /v1/videos/JOB`: the fraction of the video classified so far.
struct VideoProgress: Encodable {
    let job: String
    let fraction: Double
}
