import ModelDownloads
import TasksCommon

/// `vision-tasks models path NAME`: the file to give `--manifest` or `--model`.
struct ModelsPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models path",
        abstract: "Print the installed model's manifest.json (AutoML) or .tflite file.",
        usage: "vision-tasks models path NAME [--cache DIR]",
        discussion: """
            Prints the path of the installed version's manifest.json (an AutoML bundle) or model
            file (a single .tflite), for `label --manifest`, `label --model` or `classify --model`.
            """,
        epilogue: "EXIT STATUS: 0 when it is installed, 1 when it is not, 2 for a usage error.")

    static let optionTable = [ModelCacheOption.cache.definition]

    let model: CachedModelArguments

    init(_ parsed: ParsedArguments) throws(UsageError) {
        model = try CachedModelArguments(parsed)
    }

    func run() throws(UsageError) -> Int32 {
        // Staging folders that killed downloads left (see ModelStore).
        model.store.removeStaleTemporaries()
        guard let installed = model.store.installed(model.name) else {
            StandardStreams.reportError(model.notDownloaded)
            return 1
        }
        print(installed.kind == .automlZip ? installed.manifestURL.path : installed.modelURL.path)
        return 0
    }
}
