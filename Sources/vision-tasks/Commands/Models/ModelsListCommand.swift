import ModelCache
import ModelDownloads

/// `vision-tasks models list`.
struct ModelsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models list",
        abstract: "List the models in the cache.",
        usage: "vision-tasks models list [--cache DIR]",
        discussion: "Prints one line per downloaded model: name, version, kind, SHA-256 of the bundle, folder.",
        epilogue: "EXIT STATUS: 0, or 2 for a usage error.")

    static let optionTable = [ModelCacheOption.cache.definition]

    let store: ModelStore

    init(_ parsed: ParsedArguments) throws(UsageError) {
        store = try ModelCacheOption.store(parsed)
        guard parsed.positionals.isEmpty else { throw UsageError("models list takes no argument") }
    }

    func run() throws(UsageError) -> Int32 {
        // Staging folders that killed downloads left (see ModelStore).
        store.removeStaleTemporaries()
        for model in store.list() {
            print("\(model.name)\tversion \(model.version)\t\(model.kind.rawValue)\t\(model.sha256)\t\(model.directory.path)")
        }
        return 0
    }
}
