import Foundation

/// `vision-tasks`: classify and label images with MediaPipe- and ML Kit-compatible models.

/// The commands, in the order the tool's usage lists them.
let commands: [any ParsableCommand.Type] = [
    ClassifyCommand.self, LabelCommand.self, EmbedCommand.self, SimilarCommand.self, TrainCommand.self, EvaluateCommand.self,
    ClassifyVideoCommand.self, LiveCommand.self,
    BenchmarkCommand.self,
    ModelsCommand.self,
    InspectCommand.self, MetadataWriteCommand.self,
    ServeCommand.self,
]

let usage = HelpFormatter.toolUsage(commands.map { $0.configuration })

/// Runs the command named by the first argument; returns the exit status.
@MainActor
func main() -> Int32 {
    let arguments = CommandLineArgument.processArguments
    guard let name = arguments.first?.text else {
        StandardStreams.warn(usage)
        return 2
    }
    do throws(UsageError) {
        if ["-h", "--help", "help"].contains(name) {
            print(usage)
            return 0
        }
        if name == "--version" { return VersionText.run() }
        guard let command = commands.first(where: { $0.configuration.commandName == name }) else {
            throw UsageError("unknown command '\(TableText.escaped(name))'")
        }
        return try command.main(Array(arguments.dropFirst()))
    } catch {
        let help = error.command.map { "vision-tasks \($0) --help" } ?? "vision-tasks --help"
        StandardStreams.warn("error: \(TableText.escaped(error.message))\nRun `\(help)` for usage.")
        return 2
    }
}

exit(main())
