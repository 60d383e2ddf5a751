import Foundation
import ImageLabeling
import ModelCache
import ModelDownloads
import TasksCommon

/// `--cache DIR`, shared by the `models` subcommands.
enum ModelCacheOption {
    static let cache = Option<String?>(
        name: "cache", valueName: "DIR",
        help: "The model cache. Default: VISION_TASKS_MODEL_CACHE, else $XDG_CACHE_HOME/swift-vision-tasks/models, "
            + "else $HOME/.cache/swift-vision-tasks/models.")

    /// The cache `--cache` names, or the environment's.
    static func store(_ parsed: ParsedArguments) throws(UsageError) -> ModelStore {
        let root = try parsed.value(cache).map { URL(fileURLWithPath: $0, isDirectory: true) }
        return ModelStore(root: root ?? ModelManager.modelManager().cacheDirectory)
    }

    /// The one positional argument, a model name.
    static func modelName(_ parsed: ParsedArguments) throws(UsageError) -> String {
        guard parsed.positionals.count == 1, let name = parsed.positionals.first?.text else {
            throw UsageError("give one model name, got \(parsed.positionals.count) arguments")
        }
        if let problem = ModelName.problem(name) { throw UsageError("'\(TableText.escaped(name))': \(problem)") }
        return name
    }
}

/// The arguments of the subcommands about one cached model (`models path`, `models delete`):
/// the model name and the cache.
struct CachedModelArguments {
    let store: ModelStore
    let name: String

    init(_ parsed: ParsedArguments) throws(UsageError) {
        store = try ModelCacheOption.store(parsed)
        name = try ModelCacheOption.modelName(parsed)
    }

    /// NOT_FOUND: the model is not in the cache, naming the model and the cache.
    var notDownloaded: TasksError {
        .notFound("the model is not downloaded in \(store.root.path).", subject: .remoteModel(name))
    }
}
