import Foundation
import Testing

/// Runs a program the tests need besides `vision-tasks` (headless Chromium, python3, this test
/// binary again), found on `PATH`, with stdout and stderr captured through files.
public enum ExternalProgram {
    /// What one run printed and how it ended.
    public struct Run: Sendable, CustomStringConvertible {
        /// The command line, for messages.
        public let command: String
        /// The exit status (or the signal's number).
        public let status: Int32
        public let stdout: Data
        public let stderr: String

        /// stdout as UTF-8 text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
        public var description: String { "\(command)\nexit status \(status)\n--- stderr\n\(stderr)---" }
    }

    /// The first of `names` found as an executable on `PATH`, or nil.
    public static func find(_ names: [String]) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            if let found = directories.map({ "\($0)/\(name)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
            {
                return found
            }
        }
        return nil
    }

    /// Runs `executable` with `arguments` and `input` on stdin, waiting on a thread of its own;
    /// `safetyNet` seconds is only a guard against a hang (the process is then killed and the
    /// run fails). `environment` is added to this process's.
    public static func run(
        _ executable: String, _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
        safetyNet: Double = 300, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("stdin")
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try input.write(to: inputURL)
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        defer { try? inputHandle.close(); try? outputHandle.close(); try? errorHandle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = inputHandle
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let command = ([executable] + arguments).joined(separator: " ")
        if await !Waiting.wait(for: exited, safetyNet: safetyNet) {
            process.terminate()
            if await !Waiting.wait(for: exited, safetyNet: 5) { kill(process.processIdentifier, SIGKILL) }
            Issue.record("\(command) did not finish within \(safetyNet) s; killed", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return Run(
            command: command, status: process.terminationStatus, stdout: try Data(contentsOf: outputURL),
            stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }
}
