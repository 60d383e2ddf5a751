import Foundation

/// `vision-tasks`: classify and label images with MediaPipe- and ML Kit-compatible models.
let usage = """
USAGE: vision-tasks COMMAND [options]

COMMANDS:
  classify        Classify image files and folders with a .tflite model (MediaPipe ImageClassifier).
  label           Label image files and folders with an AutoML export or a custom model (ML Kit).
  classify-video  Classify the frames of a video file (MediaPipe's video running mode).
  live            Classify a camera, stream or pipe as frames arrive (live-stream running mode).
  benchmark       Time model creation, decoding and classification; check memory across cycles.

Run `vision-tasks COMMAND --help` for a command's options.
"""

/// Writes one line of results to standard output at once (unbuffered, unlike `print` into a
/// pipe), so that results of video and live streams reach a reader as they come.
func emit(_ line: String) {
    do {
        try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    } catch {
        exit(141)  // the reader went away (EPIPE with SIGPIPE ignored): end as SIGPIPE would
    }
}

/// Prints an error on stderr; a `TasksError` names its subject (the model, manifest or video) itself.
func reportError(_ error: any Error) {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
}

/// Runs a command, tagging its usage errors with the command's name (for the help hint).
func withCommand(_ name: String, _ body: () throws(UsageError) -> Int32) throws(UsageError) -> Int32 {
    do {
        return try body()
    } catch {
        throw UsageError(error.message, command: name)
    }
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        return 2
    }
    let rest = Array(arguments.dropFirst())
    do throws(UsageError) {
        switch command {
        case "classify": return try withCommand("classify") { () throws(UsageError) in try ClassifyCommand.run(rest) }
        case "label": return try withCommand("label") { () throws(UsageError) in try LabelCommand.run(rest) }
        case "classify-video":
            return try withCommand("classify-video") { () throws(UsageError) in try ClassifyVideoCommand.run(rest) }
        case "live": return try withCommand("live") { () throws(UsageError) in try LiveCommand.run(rest) }
        case "benchmark": return try withCommand("benchmark") { () throws(UsageError) in try BenchmarkCommand.run(rest) }
        case "-h", "--help", "help":
            print(usage)
            return 0
        default: throw UsageError("unknown command '\(command)'")
        }
    } catch {
        let help = error.command.map { "vision-tasks \($0) --help" } ?? "vision-tasks --help"
        FileHandle.standardError.write(Data("error: \(error.message)\nRun `\(help)` for usage.\n".utf8))
        return 2
    }
}

exit(main())
