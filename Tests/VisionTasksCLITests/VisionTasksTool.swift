import Foundation
import TestSupport
import Testing

/// Runs the built `vision-tasks` executable as a user would, with a timeout, and captures what
/// it printed and its exit status.
///
/// The executable is the product SwiftPM puts next to the test bundle: the folder holding
/// `SwiftVisionTasksPackageTests.xctest` is the products folder (`.build/debug`, or
/// `<scratch-path>/debug` with `--scratch-path`). `VISION_TASKS_EXECUTABLE` names another one
/// (a release build, say).
enum VisionTasksTool {
    /// The environment variable that names the executable to test instead of the one next to the tests.
    static let environmentVariable = "VISION_TASKS_EXECUTABLE"

    /// How long one run may take before it counts as a hang: the test fails and the process is
    /// killed. A safety net, not a speed check: generous, for a loaded machine.
    static let timeout: Duration = .seconds(300)

    /// `arguments` with `--verbose` after the command name, so that a model load shows LiteRT's
    /// banner and `Run.compiledModel` can tell whether the model was loaded.
    static func verbose(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, ["classify", "label", "classify-video", "live", "benchmark"].contains(command) else {
            return arguments
        }
        return [command, "--verbose"] + arguments.dropFirst()
    }

    /// The line LiteRT prints to stderr when it compiles a model (the tool hides it without `--verbose`).
    static let liteRTBanner = "INFO: Created TensorFlow Lite XNNPACK delegate for CPU."

    /// The summary a run over several images ends with on stderr, such as "3,409 images, 2
    /// failed, 41.2 s, 82.7 images/s"; it captures the counts ("3,409 images, 2 failed").
    static var batchSummary: Regex<(Substring, Substring)> {
        /([0-9,]+ images, [0-9,]+ failed), [0-9]+\.[0-9] s, [0-9]+\.[0-9] images\/s/
    }

    /// Whether `line` is the batch summary (`BatchSummaryTests` check when it appears).
    static func isBatchSummary(_ line: some StringProtocol) -> Bool {
        String(line).wholeMatch(of: batchSummary) != nil
    }

    /// What one run printed and how it ended.
    struct Run: Sendable, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let stdout: String
        let stderr: String

        /// stdout split into lines (without the final newline's empty line).
        var stdoutLines: [String] { Self.lines(stdout) }

        /// stderr's lines without LiteRT's banner and the batch summary: what the tool reported.
        var diagnostics: [String] {
            Self.lines(stderr).filter { $0 != VisionTasksTool.liteRTBanner && !VisionTasksTool.isBatchSummary($0) }
        }

        /// The batch summary's counts, such as "13 images, 1 failed" (its times vary from run to
        /// run); nil when stderr has no summary.
        var batchSummaryCounts: String? {
            Self.lines(stderr).compactMap { $0.wholeMatch(of: VisionTasksTool.batchSummary)?.1 }.last.map(String.init)
        }

        /// Whether a model was compiled during the run (LiteRT printed its banner). Only meaningful
        /// for runs made with `verbose(_:)`: the tool hides the banner otherwise.
        var compiledModel: Bool { Self.lines(stderr).contains(VisionTasksTool.liteRTBanner) }

        var description: String {
            "vision-tasks \(arguments.joined(separator: " "))\nexit status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---"
        }

        private static func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// The executable, or nil when it is in none of `candidates`.
    static let executable: URL? = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Where the executable is looked for, in order.
    static let candidates: [URL] = {
        if let path = ProcessInfo.processInfo.environment[environmentVariable] {
            return [URL(fileURLWithPath: path)]
        }
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let testRunner =
            [Bundle.main.executableURL, Bundle.main.bundleURL]
            + CommandLine.arguments.prefix(1).map { URL(fileURLWithPath: $0, relativeTo: workingDirectory) }
        var found: [URL] = []
        for url in testRunner.compactMap({ $0?.standardizedFileURL }) {
            let candidate = productsFolder(of: url).appendingPathComponent("vision-tasks")
            if !found.contains(candidate) { found.append(candidate) }
        }
        return found
    }()

    /// The folder holding the `.xctest` bundle that `url` is or is inside (on macOS the runner is
    /// `X.xctest/Contents/MacOS/X`; on Linux `X.xctest` is itself the executable), else `url`'s folder.
    private static func productsFolder(of url: URL) -> URL {
        let components = url.pathComponents
        guard let bundle = components.lastIndex(where: { $0.hasSuffix(".xctest") }) else {
            return url.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: NSString.path(withComponents: Array(components[..<bundle])), isDirectory: true)
    }

    /// Runs `vision-tasks` with `arguments` and returns what it printed and its exit status.
    ///
    /// stdout and stderr go to files (no pipe can fill up and block the tool); stdin is empty.
    /// - Throws: when the executable is missing or the run takes longer than `timeout` (both
    ///   recorded as issues at `sourceLocation`; a hung process is killed).
    /// - Parameter environment: variables set for the run on top of the test's own.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let executable = try #require(
            executable,
            "vision-tasks not found next to the test bundle (looked for \(candidates.map(\.path))); build it with `swift build`",
            sourceLocation: sourceLocation)
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdoutURL = folder.appendingPathComponent("stdout")
        let stderrURL = folder.appendingPathComponent("stderr")
        let stdoutHandle = try emptyFile(stdoutURL)
        defer { try? stdoutHandle.close() }
        let stderrHandle = try emptyFile(stderrURL)
        defer { try? stderrHandle.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutHandle
        process.standardError = stderrHandle
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()

        let finished = await Waiting.wait(for: exited, safetyNet: Double(timeout.components.seconds))
        if !finished {
            // Foundation on Linux notices the exit when every holder of the pipe it gives the child
            // closes it, so a killed process whose children live on is noticed late or not at all;
            // vision-tasks starts none, and the test fails either way.
            process.terminate()
            if await !Waiting.wait(for: exited, safetyNet: 5) {
                kill(process.processIdentifier, SIGKILL)
                _ = await Waiting.wait(for: exited, safetyNet: 5)
            }
        }
        try #require(
            finished, "vision-tasks \(arguments.joined(separator: " ")) did not finish within \(timeout); killed",
            sourceLocation: sourceLocation)
        return Run(
            arguments: arguments, status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self))
    }

    private static func emptyFile(_ url: URL) throws -> FileHandle {
        try Data().write(to: url)
        return try FileHandle(forWritingTo: url)
    }
}

extension VisionTasksTool.Run {
    /// The JSON objects printed: the elements of one array (`--format json`) or one per line (`jsonl`).
    func jsonObjects(format: String) -> [[String: Any]] {
        let lines = format == "json" ? [stdout] : stdoutLines
        return lines.flatMap { line -> [[String: Any]] in
            let value = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            return value as? [[String: Any]] ?? (value as? [String: Any]).map { [$0] } ?? []
        }
    }
}
