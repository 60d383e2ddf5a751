import Foundation
import TestSupport
import Testing

/// A `vision-tasks` process the test talks to while it runs (unlike `VisionTasksTool.run`,
/// which waits for the end): its stdin can be a pipe another process or the test writes to,
/// its stdout is a pipe read as lines arrive, each line with the time it arrived, and it
/// can be sent SIGINT.
///
/// Tests wait for what the tool prints (`waitForLines`) and for its exit on threads of their
/// own (`Waiting`); what must follow an event at once (a SIGINT, the next frame) is done by the
/// thread that sees it, and times are taken on those threads (the reader, the termination
/// handler), never after an `await`, which a busy test run can delay by a minute.
final class StreamingToolRun: @unchecked Sendable {
    /// A line of stdout and when it arrived, in seconds after the process was started.
    struct Line: Sendable {
        let text: String
        let arrival: Double
    }

    /// How a run ended.
    struct Outcome: Sendable, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let reason: Process.TerminationReason
        let lines: [Line]
        let stderr: String
        /// Seconds from the start to the exit.
        let duration: Double
        /// When it exited, in `monotonicSeconds()`.
        let exitedAt: Double

        var stdoutLines: [String] { lines.map(\.text) }

        /// stderr's lines without LiteRT's banner and the batch summary.
        var diagnostics: [String] {
            stderr.split(separator: "\n").map(String.init).filter {
                $0 != VisionTasksTool.liteRTBanner && !VisionTasksTool.isBatchSummary($0)
            }
        }

        var description: String {
            "vision-tasks \(arguments.joined(separator: " "))\n"
                + "exit status \(status) (\(reason == .exit ? "exit" : "signal")) after \(String(format: "%.2f", duration)) s\n"
                + "--- stdout\n\(stdoutLines.joined(separator: "\n"))\n--- stderr\n\(stderr)---"
        }
    }

    let arguments: [String]
    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)
    private let readerFinished = DispatchSemaphore(value: 0)
    /// Guards what follows; broadcast when a line arrives and when stdout ends.
    private let state = NSCondition()
    private var received: [Line] = []
    private var partial = Data()
    private var stdoutEnded = false
    private var exitTime: Double?
    private let folder: URL
    private let stderrURL: URL
    private let stderrHandle: FileHandle
    /// When the process was started, in `monotonicSeconds()`.
    let start: Double

    /// Starts `vision-tasks arguments` with `standardInput` (a `Pipe`, a `FileHandle`, or the
    /// null device).
    init(
        _ arguments: [String], standardInput: Any = FileHandle.nullDevice,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let executable = try #require(
            VisionTasksTool.executable,
            "vision-tasks not found next to the test bundle (looked for \(VisionTasksTool.candidates.map(\.path)))",
            sourceLocation: sourceLocation)
        self.arguments = arguments
        folder = try TestData.temporaryDirectory()
        stderrURL = folder.appendingPathComponent("stderr")
        try Data().write(to: stderrURL)
        stderrHandle = try FileHandle(forWritingTo: stderrURL)
        let output = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = standardInput
        process.standardOutput = output
        process.standardError = stderrHandle
        start = monotonicSeconds()
        process.terminationHandler = { [weak self, exited] _ in
            if let self { state.withLock { self.exitTime = monotonicSeconds() } }
            exited.signal()
        }
        try process.run()
        let reader = output.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                append(chunk, at: monotonicSeconds() - start)
            }
            state.withLock { stdoutEnded = true }
            state.broadcast()
            readerFinished.signal()
        }.start()
    }

    deinit {
        try? stderrHandle.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Seconds since the process was started.
    var elapsed: Double { monotonicSeconds() - start }

    /// The process's id (to read /proc/PID while it runs).
    var processIdentifier: Int32 { process.processIdentifier }

    /// What the process has written to stderr so far.
    var stderrSoFar: String {
        String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self)
    }

    /// The complete lines of stdout so far.
    var linesSoFar: [Line] { state.withLock { received } }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    /// Sends SIGINT as soon as a line of stdout satisfies `predicate`, from the thread that
    /// sees it (so however late the test itself resumes, the signal is not late), and returns
    /// the line and when the signal was sent, in seconds after the start; nil, without sending
    /// anything, when stdout ended first or `safetyNet` seconds passed.
    func interrupt(
        onceALine predicate: @escaping @Sendable (Line) -> Bool,
        safetyNet seconds: Double
    ) async -> (line: Line, sentAt: Double)? {
        await interrupt(safetyNet: seconds) { $0.first(where: predicate) }
    }

    /// `interrupt(onceALine:safetyNet:)` at the `count`th line.
    func interrupt(atLine count: Int, safetyNet seconds: Double) async -> (line: Line, sentAt: Double)? {
        await interrupt(safetyNet: seconds) { lines in lines.count >= count ? lines[count - 1] : nil }
    }

    private func interrupt(
        safetyNet seconds: Double,
        _ find: @escaping @Sendable ([Line]) -> Line?
    ) async -> (line: Line, sentAt: Double)? {
        await Waiting.onOwnThread { [self] in
            guard let line = blockingWaitForLine(safetyNet: seconds, find) else { return nil }
            let sentAt = elapsed
            interrupt()
            return (line, sentAt)
        }
    }

    /// Waits until `count` lines of stdout have arrived; false when stdout ended first or
    /// `safetyNet` seconds passed (a hang).
    func waitForLines(_ count: Int, safetyNet seconds: Double) async -> Bool {
        await Waiting.onOwnThread { [self] in blockingWaitForLines(count, safetyNet: seconds) }
    }

    /// `waitForLines(_:safetyNet:)`, blocking the calling thread: for a thread of the test's own.
    func blockingWaitForLines(_ count: Int, safetyNet seconds: Double) -> Bool {
        blockingWaitForLine(safetyNet: seconds) { lines in lines.count >= count ? lines[count - 1] : nil } != nil
    }

    /// Waits until `find` finds a line among those of stdout so far; nil when stdout ended
    /// first or `safetyNet` seconds passed (a hang). Blocks the calling thread.
    private func blockingWaitForLine(safetyNet seconds: Double, _ find: ([Line]) -> Line?) -> Line? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        state.lock()
        defer { state.unlock() }
        while true {
            if let line = find(received) { return line }
            if stdoutEnded || !state.wait(until: deadline) { return find(received) }
        }
    }

    /// Waits up to `seconds` for the process to exit; true when it did.
    func waitForExit(seconds: Double) async -> Bool {
        let finished = await Waiting.wait(for: exited, safetyNet: seconds)
        if finished { exited.signal() }  // later waits return at once
        return finished
    }

    /// Waits for the exit (at most `seconds`, a safety net against a hang: then the test fails
    /// and the process is killed) and returns what it printed.
    func finish(within seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Outcome {
        let finished = await waitForExit(seconds: seconds)
        if !finished {
            process.terminate()
            if await !waitForExit(seconds: 5) {
                kill(process.processIdentifier, SIGKILL)
                _ = await waitForExit(seconds: 5)
            }
        }
        let readerDone = await Waiting.wait(for: readerFinished, safetyNet: 30)
        let outcome = state.withLock {
            let exitedAt = exitTime ?? monotonicSeconds()
            return Outcome(
                arguments: arguments, status: process.isRunning ? -1 : process.terminationStatus,
                reason: process.isRunning ? .uncaughtSignal : process.terminationReason, lines: received,
                stderr: String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self),
                duration: exitedAt - start, exitedAt: exitedAt)
        }
        try #require(finished, "did not exit within \(seconds) s; killed\n\(outcome)", sourceLocation: sourceLocation)
        try #require(
            readerDone, "stdout did not reach its end within 30 s of the exit\n\(outcome)", sourceLocation: sourceLocation)
        return outcome
    }

    private func append(_ chunk: Data, at time: Double) {
        state.withLock {
            partial.append(chunk)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                received.append(Line(text: String(decoding: partial[partial.startIndex..<newline], as: UTF8.self), arrival: time))
                partial.removeSubrange(partial.startIndex...newline)
            }
        }
        state.broadcast()
    }
}

/// An `ffmpeg` process writing raw RGB24 frames to a pipe, to be given as another process's stdin.
final class RawFrameFeeder: @unchecked Sendable {
    /// The pipe whose read end the consumer gets (Foundation closes the parent's write end when
    /// ffmpeg starts, and the read end when the consumer starts).
    let pipe = Pipe()
    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `ffmpeg -i clip -f rawvideo -pix_fmt rgb24 -`: the clip's frames as fast as they decode.
    init(clip: URL) throws {
        let ffmpeg = try #require(VideoClipMaker.ffmpegPath)
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-nostdin", "-v", "error", "-i", clip.path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    /// Waits for ffmpeg to exit (killing it after `seconds`, a safety net); returns its status, or nil when killed.
    func finish(within seconds: Double) async -> Int32? {
        if await Waiting.wait(for: exited, safetyNet: seconds) { return process.terminationStatus }
        process.terminate()
        _ = await Waiting.wait(for: exited, safetyNet: 5)
        return nil
    }
}

/// Runs `command SOURCE --model MODEL --timeout 1000` on a UDP port or TCP server that never
/// sends: exit 1, one error naming the source and the timeout, after waiting about 1 s. The wait
/// is timed from the moment the tool reached the source (connected, or bound the UDP port) to
/// its exit, both seen outside the tool, so that starting the process and loading the model,
/// which a loaded machine stretches, do not count; at least the timeout must have passed since
/// the process started.
func expectGivesUpOnSilentSource(
    command: String, kind: String, model: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let server = kind == "tcp" ? try SilentSource.TCPServer() : nil
    let udpPort = server == nil ? try SilentSource.freeUDPPort() : 0
    let url = server?.url ?? "udp://127.0.0.1:\(udpPort)"
    let live = try StreamingToolRun([command, url, "--model", model, "--timeout", "1000"])
    let reached =
        if let server {
            await server.connectionTime(safetyNet: 120)
        } else {
            await SilentSource.udpBindTime(port: udpPort, safetyNet: 120)
        }
    let run = try await live.finish(within: 120)
    #expect(run.status == 1, "\(run)", sourceLocation: sourceLocation)
    #expect(run.stdoutLines.isEmpty, "\(run)", sourceLocation: sourceLocation)
    #expect(run.diagnostics.count == 1, "\(run)", sourceLocation: sourceLocation)
    #expect(
        run.diagnostics.first?.hasPrefix("error: DEADLINE_EXCEEDED: \(url): ") == true, "names the source: \(run)",
        sourceLocation: sourceLocation)
    #expect(
        run.diagnostics.first?.contains("'\(url)'") == false, "the reason does not repeat the source: \(run)",
        sourceLocation: sourceLocation)
    #expect(run.diagnostics.first?.contains("1000 ms") == true, "\(run)", sourceLocation: sourceLocation)
    let reachedAt = try #require(reached, "the tool never reached \(url) (within 120 s)\n\(run)", sourceLocation: sourceLocation)
    expectGaveUp(
        outer: run.duration, inner: run.exitedAt - reachedAt, timeoutMilliseconds: 1000, "\(run)",
        sourceLocation: sourceLocation)
    withExtendedLifetime(server) {}
}
