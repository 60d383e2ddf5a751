import ModelDownloads
import TasksCommon

/// `vision-tasks models delete NAME`.
struct ModelsDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models delete",
        abstract: "Delete a downloaded model from the cache.",
        usage: "vision-tasks models delete NAME [--cache DIR]",
        discussion: """
            Removes every installed version of the model from the cache. A download of the model
            into the same cache by another process is waited for.
            """,
        epilogue: "EXIT STATUS: 0 when it was deleted, 1 when it was not downloaded or cannot be removed, 2 for a usage error.")

    static let optionTable = [ModelCacheOption.cache.definition]

    let model: CachedModelArguments

    init(_ parsed: ParsedArguments) throws(UsageError) {
        model = try CachedModelArguments(parsed)
    }

    func run() throws(UsageError) -> Int32 {
        // Staging folders that killed downloads left (see ModelStore).
        model.store.removeStaleTemporaries()
        do throws(TasksError) {
            let waiting =
                "\(model.name): another process is downloading it into \(model.store.root.path); waiting for it to finish"
            guard try model.store.delete(model.name, whileBusy: { StandardStreams.warn(waiting) }) else {
                throw model.notDownloaded
            }
            print("deleted \(model.name)")
            return 0
        } catch {
            StandardStreams.reportError(error)
            return 1
        }
    }
}
