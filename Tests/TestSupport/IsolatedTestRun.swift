import Foundation
import Testing

/// Runs a test in a process of its own: this test binary started again with a filter that
/// selects only that test, for what a process-wide state would blur (resident memory, what is
/// written to the process's stderr) while other tests run in parallel.
public enum IsolatedTestRun {
    /// What the child printed on stdout and stderr, interleaved, and its exit status.
    public struct Output: Sendable {
        public let printed: String
        public let status: Int32
    }

    /// Starts this test binary with `--filter filter` (a pattern that must select only the
    /// calling test) and `environment` added to this process's, and returns what it printed.
    public static func run(filter: String, environment: [String: String]) async throws -> Output {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("output")
        try Data().write(to: outputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if await !Waiting.wait(for: exited, safetyNet: 600) {
            process.terminate()
            _ = await Waiting.wait(for: exited, safetyNet: 10)
        }
        let printed = String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self)
        return Output(printed: printed, status: process.terminationStatus)
    }
}
