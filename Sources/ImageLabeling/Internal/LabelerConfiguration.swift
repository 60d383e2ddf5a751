import Foundation
import TaskRuntime
import TasksCommon

/// ML Kit's labeler options turned into the classification pipeline's configuration.
struct LabelerConfiguration {
    let options: CommonImageLabelerOptions

    init(_ options: CommonImageLabelerOptions) { self.options = options }

    /// Reads the model (and the AutoML manifest and labels), checks the options, builds the engine.
    func makeEngine() throws(TasksError) -> sending ClassifierEngine {
        guard options.maxResultCount >= 1 else {
            throw .invalidArgument(
                "maxResultCount must be at least 1, got \(options.maxResultCount).",
                subject: .option("maxResultCount"))
        }
        let explicit = options.confidenceThreshold.map(\.floatValue)
        if let explicit, !(0...1).contains(explicit) {
            throw .invalidArgument(
                "confidenceThreshold must be in [0, 1], got \(explicit).",
                subject: .option("confidenceThreshold"))
        }
        let (model, isAutoMLOptions) = try localModel()
        let threshold: ScoreThreshold =
            explicit.map { .value($0) }
            ?? (isAutoMLOptions ? .value(AutoMLImageLabelerOptions.defaultConfidenceThreshold) : .metadataOr(0))
        var configuration = ClassifierConfiguration(
            asset: try ModelAsset(path: model.path, buffer: nil), threadCount: ClassifierConfiguration.defaultThreadCount,
            maxResults: options.maxResultCount, scoreThreshold: threshold)
        if let manifest = model.manifest {
            configuration.labelOverride = LabelOverride(labels: try manifest.labels(), file: manifest.labelsURL.path)
        }
        let engine = try ClassifierEngine(configuration)
        guard engine.heads.count == 1 else {
            // ML Kit's labeler reads one output; taking the first of several would be a guess.
            throw .invalidArgument(
                "ML Kit's image labeler uses one output (head), but this model has \(engine.heads.count) "
                    + "(\(engine.heads.map { $0.name.isEmpty ? "output \($0.index)" : $0.name }.joined(separator: ", "))); "
                    + "use VisionTasks' ImageClassifier, which returns every head.", subject: .file(model.path))
        }
        return engine
    }

    /// The installed version of a remote model, as a local model.
    private static func downloaded(_ remote: RemoteModel) throws(TasksError) -> LocalModel {
        guard let installed = ModelManager.modelManager().installed(remote) else {
            throw .failedPrecondition(
                "the remote model is not downloaded: call ModelManager.modelManager().download(_:conditions:) and "
                    + "create the labeler after .mlkitModelDownloadDidSucceed (or `vision-tasks models download \(remote.name)`).",
                subject: .remoteModel(remote.name))
        }
        return installed.localModel
    }

    /// The model file and, for AutoML exports, the manifest; and whether these are AutoML options.
    private func localModel() throws(TasksError) -> (model: (path: String, manifest: AutoMLManifest?), isAutoML: Bool) {
        let local: LocalModel?
        let remote: RemoteModel?
        let isAutoML: Bool
        switch options {
        case let automl as AutoMLImageLabelerOptions: (local, remote, isAutoML) = (automl.localModel, automl.remoteModel, true)
        case let custom as CustomImageLabelerOptions: (local, remote, isAutoML) = (custom.localModel, custom.remoteModel, false)
        default: throw .invalidArgument("Unsupported options type \(type(of: options)).")
        }
        var model = local
        if model == nil, let remote { model = try Self.downloaded(remote) }
        guard let local = model else { throw .invalidArgument("The options name no model.") }
        guard let automl = local as? AutoMLImageLabelerLocalModel else { return ((local.path, nil), isAutoML) }
        let manifest = try AutoMLManifest(path: automl.manifestPath)
        return ((manifest.modelURL.path, manifest), isAutoML)
    }
}
