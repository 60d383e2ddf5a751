import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import VideoInput

/// Pipes, FIFOs and network sources: raw frames written by the test, and sources that never
/// deliver, which must fail within the timeout.
@Suite("VideoSource live sources")
struct VideoSourceLiveTests {
    /// The raw frames the writers send: 32x16 RGB, each filled with its own colour.
    static let frameWidth = 32
    static let frameHeight = 16
    static let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (200, 100, 50), (10, 20, 30)]

    /// Options for raw RGB frames at 25 fps (40 ms apart).
    static func rawOptions(timeout: Int = 10_000) -> VideoSourceOptions {
        VideoSourceOptions(
            timeoutInMilliseconds: timeout, inputFormat: "rawvideo",
            demuxerOptions: ["video_size": "\(frameWidth)x\(frameHeight)", "pixel_format": "rgb24", "framerate": "25"])
    }

    /// The bytes of frame `index`.
    static func rawFrame(_ index: Int) -> [UInt8] {
        let (red, green, blue) = colours[index]
        return Array([[UInt8]](repeating: [red, green, blue], count: frameWidth * frameHeight).joined())
    }

    /// Writes all of `bytes` to `descriptor`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Checks the frames of `source` against `colours`: pixels exact, 40 ms apart. Calls
    /// `afterEachFrame` as each frame arrives.
    func expectColourFrames(
        _ source: VideoSource, afterEachFrame: () -> Void = {},
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(source.codecName == "rawvideo", sourceLocation: sourceLocation)
        #expect(source.width == Self.frameWidth && source.height == Self.frameHeight, sourceLocation: sourceLocation)
        var frames: [VideoFrame] = []
        while let frame = try source.nextFrame() {
            frames.append(frame)
            afterEachFrame()
        }
        #expect(frames.map(\.timestampInMilliseconds) == (0..<Self.colours.count).map { $0 * 40 }, sourceLocation: sourceLocation)
        for (frame, colour) in zip(frames, Self.colours) {
            let corner = frame.pixels.rgba(x: 0, y: 0), centre = frame.pixels.rgba(x: 17, y: 9)
            #expect(
                corner.red == colour.0 && corner.green == colour.1 && corner.blue == colour.2, "\(corner) vs \(colour)",
                sourceLocation: sourceLocation)
            #expect(centre.red == colour.0 && centre.green == colour.1 && centre.blue == colour.2, sourceLocation: sourceLocation)
        }
    }

    /// The writer sends each frame once the source has returned the one before, so every
    /// read waits for data that is not there yet, and a source that needed more than a
    /// frame's bytes to return a frame would time out.
    @Test("raw RGB frames through pipe:N, one at a time")
    func rawFramesThroughPipe() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }
        let returned = DispatchSemaphore(value: 0)
        let writer = Thread {
            for index in Self.colours.indices {
                // The safety net only ends the writer if the source fails; the source's own
                // timeout (10 s) fails the test first.
                if index > 0 && returned.wait(timeout: .now() + 60) == .timedOut { break }
                Self.writeAll(Self.rawFrame(index), to: writeEnd)
            }
            close(writeEnd)
        }
        writer.start()
        let source = try VideoSource(url: "pipe:\(readEnd)", options: Self.rawOptions())
        try expectColourFrames(source, afterEachFrame: { returned.signal() })
        #expect(fcntl(readEnd, F_GETFD) >= 0, "the caller's descriptor stays open")
    }

    @Test("raw RGB frames through a FIFO, the writer arriving after the source opens it")
    func rawFramesThroughFIFO() throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let fifo = directory.appendingPathComponent("frames.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let resolved = URL(fileURLWithPath: fifo).resolvingSymlinksInPath().path
        let writer = Thread {
            // Open the FIFO once the source has it open (a descriptor of this process names it),
            // polled, with a safety net: the source's own timeout (10 s) fails the test first.
            _ = Waiting.blockingPoll(safetyNet: 60, every: 0.001) { Self.isOpenInThisProcess(resolved) }
            let descriptor = open(fifo, O_WRONLY)
            guard descriptor >= 0 else { return }
            for index in Self.colours.indices {
                Self.writeAll(Self.rawFrame(index), to: descriptor)
            }
            close(descriptor)
        }
        writer.start()
        let source = try VideoSource(url: fifo, options: Self.rawOptions())
        try expectColourFrames(source)
    }

    /// Whether a file descriptor of this process refers to `path` (`/proc/self/fd`).
    static func isOpenInThisProcess(_ path: String) -> Bool {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.contains {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
        }
    }

    @Test("a FIFO nobody writes to fails with deadlineExceeded within the timeout")
    func silentFIFO() throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let fifo = directory.appendingPathComponent("silent.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // Probing waits for data in the initializer; raw video needs none until the first frame.
        for options in [VideoSourceOptions(timeoutInMilliseconds: 1_000), Self.rawOptions(timeout: 1_000)] {
            let start = monotonicSeconds()
            let error = expectTasksError(.deadlineExceededError, containing: ["1000 ms"]) { () throws(TasksError) in
                try VideoSource(url: fifo, options: options).nextFrame()
            }
            #expect(error?.subject == .videoSource(fifo), "\(String(describing: error))")
            #expect(error?.message.hasPrefix("\(fifo): ") == true, "\(String(describing: error))")
            expectGaveUp(after: monotonicSeconds() - start, timeoutMilliseconds: options.timeoutInMilliseconds)
        }
    }

    @Test("a pipe that stalls after two frames fails with deadlineExceeded on the third")
    func stalledPipe() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd); close(writeEnd) }
        Self.writeAll(Self.rawFrame(0) + Self.rawFrame(1), to: writeEnd)

        let source = try VideoSource(url: "pipe:\(readEnd)", options: Self.rawOptions(timeout: 1_000))
        #expect(try source.nextFrame()?.timestampInMilliseconds == 0)
        #expect(try source.nextFrame()?.timestampInMilliseconds == 40)
        let start = monotonicSeconds()
        let error = expectTasksError(.deadlineExceededError, containing: ["no data within the timeout of 1000 ms"]) {
            () throws(TasksError) in try source.nextFrame()
        }
        #expect(error?.subject == .videoSource("pipe:\(readEnd)"), "\(String(describing: error))")
        #expect(
            error?.message.hasPrefix("pipe:\(readEnd): Failed to read video source: no data within the timeout of 1000 ms (")
                == true,
            "\(String(describing: error))")
        expectGaveUp(after: monotonicSeconds() - start, timeoutMilliseconds: 1_000)
    }

    @Test("a TCP server that accepts but never sends fails with deadlineExceeded within the timeout")
    func silentServer() throws {
        let server = try SilentSource.TCPServer()
        let start = monotonicSeconds()
        let url = "tcp://127.0.0.1:\(server.port)"
        let error = expectTasksError(.deadlineExceededError, containing: ["1000 ms"]) { () throws(TasksError) in
            try VideoSource(url: url, options: VideoSourceOptions(timeoutInMilliseconds: 1_000))
        }
        #expect(error?.subject == .videoSource(url), "\(String(describing: error))")
        #expect(error?.message.hasPrefix("\(url): ") == true, "\(String(describing: error))")
        expectGaveUp(after: monotonicSeconds() - start, timeoutMilliseconds: 1_000)
    }

    @Test("a UDP port nobody sends to fails with deadlineExceeded within the timeout")
    func silentUDPPort() throws {
        let port = try SilentSource.freeUDPPort()
        let start = monotonicSeconds()
        expectTasksError(.deadlineExceededError, containing: ["1000 ms"]) { () throws(TasksError) in
            try VideoSource(url: "udp://127.0.0.1:\(port)", options: VideoSourceOptions(timeoutInMilliseconds: 1_000))
        }
        expectGaveUp(after: monotonicSeconds() - start, timeoutMilliseconds: 1_000)
    }

    @Test("tcp://127.0.0.1:9 (nothing listening) fails within the timeout with a typed error")
    func unreachablePort() throws {
        let start = monotonicSeconds()
        do {
            _ = try VideoSource(url: "tcp://127.0.0.1:9", options: VideoSourceOptions(timeoutInMilliseconds: 1_000))
            Issue.record("opened tcp://127.0.0.1:9")
        } catch {
            // Refused at once on most machines (unavailable); a firewall that drops it makes it a timeout.
            #expect([.unavailableError, .deadlineExceededError].contains(error.code), "\(error)")
            #expect(error.subject == .videoSource("tcp://127.0.0.1:9"), "\(error)")
            #expect(error.message.hasPrefix("tcp://127.0.0.1:9: "), "\(error)")
        }
        let elapsed = monotonicSeconds() - start
        #expect(elapsed < 5, "gave up after \(elapsed) s: refused at once, or within 5 times the timeout of 1 s")
    }
}
