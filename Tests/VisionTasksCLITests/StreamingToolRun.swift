import Foundation
import Testing
import TestSupport

/// A `vision-tasks` process the test talks to while it runs (unlike `VisionTasksTool.run`,
/// which waits for the end): its stdin can be a pipe another process or the test writes to,
/// its stdout is a pipe read as lines arrive, each line with the time it arrived, and it
/// can be sent SIGINT.
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

        var stdoutLines: [String] { lines.map(\.text) }

        /// stderr's lines without LiteRT's banner.
        var diagnostics: [String] {
            stderr.split(separator: "\n").map(String.init).filter { $0 != VisionTasksTool.liteRTBanner }
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
    private let lock = NSLock()
    private var received: [Line] = []
    private var partial = Data()
    private var exitTime: Double?
    private let folder: URL
    private let stderrURL: URL
    private let stderrHandle: FileHandle
    private let start: Double

    /// Starts `vision-tasks arguments` with `standardInput` (a `Pipe`, a `FileHandle`, or the
    /// null device).
    init(_ arguments: [String], standardInput: Any = FileHandle.nullDevice,
         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let executable = try #require(VisionTasksTool.executable,
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
        start = ProcessInfo.processInfo.systemUptime
        process.terminationHandler = { [weak self, exited] _ in
            if let self { lock.withLock { self.exitTime = self.elapsed } }
            exited.signal()
        }
        try process.run()
        let reader = output.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                append(chunk, at: ProcessInfo.processInfo.systemUptime - start)
            }
            readerFinished.signal()
        }.start()
    }

    deinit {
        try? stderrHandle.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Seconds since the process was started.
    var elapsed: Double { ProcessInfo.processInfo.systemUptime - start }

    /// The complete lines of stdout so far.
    var linesSoFar: [Line] { lock.withLock { received } }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    /// Waits up to `seconds` for the process to exit; true when it did.
    func waitForExit(seconds: Double) async -> Bool {
        let finished = await Self.wait(for: exited, seconds: seconds)
        if finished { exited.signal() }  // later waits return at once
        return finished
    }

    /// Waits until a line of stdout has arrived, up to `seconds`; true when one did.
    func waitForOutput(seconds: Double) async -> Bool {
        let deadline = elapsed + seconds
        while elapsed < deadline {
            if !linesSoFar.isEmpty { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for the exit (at most `seconds`: then the test fails and the process is killed)
    /// and returns what it printed.
    func finish(within seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Outcome {
        let finished = await waitForExit(seconds: seconds)
        if !finished {
            process.terminate()
            if await !waitForExit(seconds: 5) {
                kill(process.processIdentifier, SIGKILL)
                _ = await waitForExit(seconds: 5)
            }
        }
        let readerDone = await Self.wait(for: readerFinished, seconds: 10)
        let outcome = lock.withLock {
            Outcome(arguments: arguments, status: process.isRunning ? -1 : process.terminationStatus,
                    reason: process.isRunning ? .uncaughtSignal : process.terminationReason, lines: received,
                    stderr: String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self),
                    duration: exitTime ?? elapsed)
        }
        try #require(finished, "did not exit within \(seconds) s; killed\n\(outcome)", sourceLocation: sourceLocation)
        try #require(readerDone, "stdout did not reach its end within 10 s of the exit\n\(outcome)", sourceLocation: sourceLocation)
        return outcome
    }

    private func append(_ chunk: Data, at time: Double) {
        lock.withLock {
            partial.append(chunk)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                received.append(Line(text: String(decoding: partial[partial.startIndex..<newline], as: UTF8.self), arrival: time))
                partial.removeSubrange(partial.startIndex...newline)
            }
        }
    }

    /// Waits for `semaphore` on a thread of its own, so that no Swift concurrency thread (nor
    /// one of Dispatch's few pool threads) is held while the tests run in parallel.
    static func wait(for semaphore: DispatchSemaphore, seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: semaphore.wait(timeout: .now() + seconds) == .success)
            }.start()
        }
    }
}

/// An `ffmpeg` process writing raw RGB24 frames to a pipe, to be given as another process's stdin.
final class RawFrameFeeder: @unchecked Sendable {
    /// The pipe whose read end the consumer gets (Foundation closes the parent's write end when
    /// ffmpeg starts, and the read end when the consumer starts).
    let pipe = Pipe()
    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `ffmpeg [-re] -i clip -f rawvideo -pix_fmt rgb24 -`: the clip's frames as fast as
    /// they decode, or at the clip's own pace with `paced` (`-re`).
    init(clip: URL, paced: Bool) throws {
        let ffmpeg = try #require(VideoClipMaker.ffmpegPath)
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-v", "error"] + (paced ? ["-re"] : [])
            + ["-i", clip.path, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    /// Waits for ffmpeg to exit (killing it after `seconds`); returns its status, or nil when killed.
    func finish(within seconds: Double) async -> Int32? {
        if await StreamingToolRun.wait(for: exited, seconds: seconds) { return process.terminationStatus }
        process.terminate()
        _ = await StreamingToolRun.wait(for: exited, seconds: 5)
        return nil
    }
}

/// Network sources that never deliver a byte, for `--timeout`.
enum SilentSource {
    /// A UDP URL on 127.0.0.1 at a port that was free a moment ago: nothing will ever arrive.
    static func udpURL() throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw VideoClipMaker.Failure(message: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = loopback()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw VideoClipMaker.Failure(message: "bind: errno \(errno)") }
        return "udp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
    }

    /// A TCP server on 127.0.0.1 that never accepts: clients connect (the kernel completes the
    /// handshake) and then wait for data for ever. Open while the value lives.
    final class TCPServer {
        let descriptor: Int32
        let url: String

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw VideoClipMaker.Failure(message: "socket: errno \(errno)") }
            var address = loopback()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && listen(descriptor, 4) == 0 && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard bound else {
                close(descriptor)
                throw VideoClipMaker.Failure(message: "bind/listen: errno \(errno)")
            }
            self.descriptor = descriptor
            url = "tcp://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        }

        deinit { close(descriptor) }
    }

    private static func loopback() -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        return address
    }
}

/// Runs `command SOURCE --model MODEL --timeout 1000` on a UDP port or TCP server that never
/// sends: exit 1 after about 1 s (timed from the process's start to its exit, since the tests'
/// own waits lag under parallel load), one error naming the source and the timeout.
func expectGivesUpOnSilentSource(command: String, kind: String, model: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let server = kind == "tcp" ? try SilentSource.TCPServer() : nil
    let url = try server?.url ?? SilentSource.udpURL()
    let run = try await StreamingToolRun([command, url, "--model", model, "--timeout", "1000"]).finish(within: 60)
    let elapsed = run.duration
    #expect(run.status == 1, "\(run)", sourceLocation: sourceLocation)
    #expect(run.stdoutLines.isEmpty, "\(run)", sourceLocation: sourceLocation)
    #expect(run.diagnostics.count == 1, "\(run)", sourceLocation: sourceLocation)
    #expect(run.diagnostics.first?.hasPrefix("error: DEADLINE_EXCEEDED: ") == true, "\(run)", sourceLocation: sourceLocation)
    #expect(run.diagnostics.first?.contains("'\(url)'") == true, "names the source: \(run)", sourceLocation: sourceLocation)
    #expect(run.diagnostics.first?.contains("1000 ms") == true, "\(run)", sourceLocation: sourceLocation)
    #expect(elapsed >= 0.9 && elapsed < 8, "gave up after \(elapsed) s (the default timeout is 10 s)\n\(run)",
            sourceLocation: sourceLocation)
    withExtendedLifetime(server) {}
}
