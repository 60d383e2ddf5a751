import FileSystem
import Foundation
import TaskRuntime
import TasksCommon

/// `vision-tasks inspect`: what a model holds (tensors, TFLite Model Metadata, packed files)
/// and whether MediaPipe's ImageClassifier and this tool accept it.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a model's tensors and metadata, and whether MediaPipe and this tool accept it.",
        usage: "vision-tasks inspect [--format table|json] MODEL",
        discussion: """
            Shows the model's inputs and outputs (name, type, shape, quantization), its TFLite Model
            Metadata (name, description, version, author, license, input normalization and colour
            space, per head the labels, locales, score calibration and threshold, min_parser_version),
            the files packed in it, and whether MediaPipe's ImageClassifier and this tool accept it,
            with the reason when not. The JSON keys of the metadata are the metadata schema's names, as
            tflite-support's MetadataDisplayer shows them.
            """,
        epilogue: """
            EXIT STATUS: 0 when the model was inspected (accepted or not), 1 when it could not be read,
            2 for a usage error.
            """)

    static let format = OutputFormat.option(
        allowing: [.table, .json], help: "table (readable lines) or json (one object, the metadata under the schema's names).")

    static let optionTable = [format.definition, StandardOptions.verbose.definition]

    let model: String
    let format: OutputFormat
    let verbose: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else {
            throw UsageError("inspect takes one MODEL, got \(parsed.positionals.count)")
        }
        model = parsed.positionals[0].text
        format = try parsed.value(Self.format)
        verbose = parsed.isSet(StandardOptions.verbose)
    }

    func run() throws(UsageError) -> Int32 {
        guard
            let inspection = ModelLoading.load(
                verbose: verbose,
                { () throws(TasksError) in
                    let bytes = try FileReader.contents(atPath: model, as: .model)
                    do throws(TasksError) {
                        return try ModelInspection(bytes: Data(bytes))
                    } catch {
                        throw error.naming(.file(model))
                    }
                })
        else { return 1 }
        switch format {
        case .json:
            let object = InspectJSON.object(inspection, path: model)
            guard
                let data = try? JSONSerialization.data(
                    withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            else {
                StandardStreams.reportError(.internal("The inspection could not be written as JSON."))
                return 1
            }
            StandardStreams.emit(String(decoding: data, as: UTF8.self))
        default:
            for line in InspectTable.lines(inspection, path: model) { StandardStreams.emit(line) }
        }
        return 0
    }
}
