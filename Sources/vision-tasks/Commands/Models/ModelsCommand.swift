import Foundation

/// `vision-tasks models SUBCOMMAND`: publishes (index), downloads, lists, locates and deletes
/// remote models. Dispatches to one command per subcommand.
struct ModelsCommand: ParsableCommand {
    static var subcommands: [any ParsableCommand.Type] {
        [
            ModelsIndexCommand.self, ModelsListCommand.self, ModelsDownloadCommand.self, ModelsPathCommand.self,
            ModelsDeleteCommand.self,
        ]
    }

    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Publish (index), download, list, locate and delete remote models.",
        usage: "vision-tasks models (index | list | download | path | delete) [options] ...",
        discussion: """
            SUBCOMMANDS:
            \(subcommands.map { "  \($0.configuration.usage.replacingOccurrences(of: "vision-tasks ", with: ""))" }.joined(separator: "\n"))

            A model source is any HTTP server serving a folder with index.json (`models index DIR`
            writes it). Downloads go to the cache (--cache, else VISION_TASKS_MODEL_CACHE, else
            $XDG_CACHE_HOME/swift-vision-tasks/models, else $HOME/.cache/swift-vision-tasks/models)
            from --source, else VISION_TASKS_MODEL_SOURCE.
            """,
        epilogue: "Run `vision-tasks models SUBCOMMAND --help` for a subcommand's options.")

    static let optionTable: [OptionDefinition] = []

    init(_ parsed: ParsedArguments) throws(UsageError) {}

    func run() throws(UsageError) -> Int32 { 0 }

    static func main(_ arguments: [CommandLineArgument]) throws(UsageError) -> Int32 {
        guard let name = arguments.first?.text else {
            throw UsageError("a subcommand is required (index, list, download, path, delete)", command: "models")
        }
        if ["-h", "--help", "help"].contains(name) {
            print(HelpFormatter.help(configuration, options: completeOptionTable))
            return 0
        }
        guard let command = subcommands.first(where: { $0.configuration.commandName == "models \(name)" }) else {
            throw UsageError("unknown subcommand '\(TableText.escaped(name))'", command: "models")
        }
        return try command.main(Array(arguments.dropFirst()))
    }
}
