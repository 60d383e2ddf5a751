import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

extension VisionTasksTool {
    /// Runs `vision-tasks` with arguments given as bytes, as a shell passes a file name that is
    /// not UTF-8 (Foundation's `Process` takes `String`s, which cannot hold such a name).
    ///
    /// Started with `posix_spawn`; stdout and stderr go to files, stdin is /dev/null; a run
    /// longer than `timeout` is killed and recorded as an issue.
    static func run(bytes arguments: [[UInt8]], sourceLocation: SourceLocation = #_sourceLocation) async throws -> Run {
        let executable = try #require(
            executable, "vision-tasks not found next to the test bundle (looked for \(candidates.map(\.path)))",
            sourceLocation: sourceLocation)
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stdoutPath = folder.appendingPathComponent("stdout").path
        let stderrPath = folder.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        // argv: NUL-terminated copies (+1, freed below), then a null pointer.
        let argv: [UnsafeMutablePointer<CChar>?] =
            ([Array(executable.path.utf8)] + arguments).map { bytes in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
                copy[bytes.count] = 0
                return copy
            } + [nil]
        defer { argv.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        let spawned = argv.withUnsafeBufferPointer { pointers in
            posix_spawn(&pid, executable.path, &actions, nil, UnsafeMutablePointer(mutating: pointers.baseAddress!), environ)
        }
        try #require(spawned == 0, "posix_spawn failed: \(String(cString: strerror(spawned)))", sourceLocation: sourceLocation)
        let child = pid

        // Wait for the exit on threads of their own (`Waiting`), so that neither a Swift
        // concurrency thread nor one of Dispatch's few pool threads is held while tests run in parallel.
        let exited = DispatchSemaphore(value: 0)
        let status = WaitStatus()
        Thread {
            var code: Int32 = 0
            while waitpid(child, &code, 0) < 0, errno == EINTR {}
            status.value.store(code, ordering: .sequentiallyConsistent)
            exited.signal()
        }.start()
        let finished = await Waiting.wait(for: exited, safetyNet: Double(timeout.components.seconds))
        if !finished {
            kill(child, SIGKILL)
            _ = await Waiting.wait(for: exited, safetyNet: 30)
        }
        try #require(finished, "vision-tasks did not finish within \(timeout); killed", sourceLocation: sourceLocation)
        let code = status.value.load(ordering: .sequentiallyConsistent)
        // WIFEXITED / WEXITSTATUS, or 128 + the signal, as a shell reports it.
        let exitStatus = code & 0x7F == 0 ? (code >> 8) & 0xFF : 128 + (code & 0x7F)
        return Run(
            arguments: arguments.map { String(decoding: $0, as: UTF8.self) }, status: exitStatus,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: stdoutPath)), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: stderrPath)), as: UTF8.self))
    }
}

/// The status `waitpid` reported, handed from the waiting thread to the test.
private final class WaitStatus: Sendable {
    let value = Atomic<Int32>(0)
}
