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

    let store: ModelStore
    let name: String

    init(_ parsed: ParsedArguments) throws(UsageError) {
        store = try ModelCacheOption.store(parsed)
        name = try ModelCacheOption.modelName(parsed)
    }

    func run() throws(UsageError) -> Int32 {
        guard let model = store.installed(name) else {
            StandardStreams.reportError(
                .notFound("the model is not downloaded in \(store.root.path).", subject: .remoteModel(name)))
            return 1
        }
        print(model.kind == .automlZip ? model.manifestURL.path : model.modelURL.path)
        return 0
    }
}
