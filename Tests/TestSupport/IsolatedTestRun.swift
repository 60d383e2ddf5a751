import Foundation
import Testing

/// Runs a test in a process of its own: this test binary started again with a filter that
/// selects only that test, for what a process-wide state would blur (resident memory, what is
/// written to the process's stderr) while other tests run in parallel.
public enum IsolatedTestRun {
    /// Starts this test binary with `--filter filter` (a pattern that must select only the
    /// calling test) and `environment` added to this process's, and returns how it ran.
    public static func run(
        filter: String, environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ExternalProgram.Run {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return try await ExternalProgram.run(
            executable, ["--testing-library", "swift-testing", "--filter", filter], environment: environment,
            safetyNet: 600, sourceLocation: sourceLocation)
    }
}
