import Foundation
import TestSupport
import Testing

/// Slow and greedy clients: a request head that trickles in, a body below the minimum rate, a
/// chunked body over the limit and every connection taken. Each is cut off or refused in bounded
/// time, and the health probes keep answering. The trickles are paced with short sleeps: being
/// slow is what is under test; the outcome itself is awaited as an event.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServeSlowClientTests {
    static let classifyHead =
        "POST /v1/models/mobilenet/classify HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"

    /// Sends `piece` every `interval` seconds until the server answers or closes (or 120 s pass).
    static func trickle(_ piece: Data, every interval: Double, on connection: RawConnection) async {
        await Waiting.onOwnThread {
            let start = monotonicSeconds()
            while monotonicSeconds() - start < 120, !connection.hasAnswered, connection.send(piece) {
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }

    @Test func aTricklingRequestHeadIsClosedAtTheIdleTimeout() async throws {
        let server = try await ServerProcess(["--model", "mobilenet=\(ServerProcess.mobilenet)", "--idle-timeout", "2"])
        let slow = try RawConnection(port: server.port)
        slow.send("GET /v2/health/live HTTP/1.1\r\n")
        // A header line every 0.3 s: libmicrohttpd's own timeout (2 s of silence) never fires.
        await Self.trickle(Data("X-Trickle: 1\r\n".utf8), every: 0.3, on: slow)
        #expect(await slow.readAll().isEmpty, "a late head is closed without an answer")
        #expect(try await server.metric("vision_tasks_connections_late_head_total") == 1)
        #expect(await server.terminate() == 0)
    }

    @Test func aBodyBelowTheMinimumRateGets408() async throws {
        let server = try await ServerProcess(
            ["--model", "mobilenet=\(ServerProcess.mobilenet)", "--idle-timeout", "3600", "--min-body-rate", "1000"])
        let slow = try RawConnection(port: server.port)
        slow.send(Self.classifyHead + "Content-Length: 100000\r\n\r\n")
        // 10 bytes every 0.2 s, 50 bytes per second: after the first 10 s the body is cut off.
        await Self.trickle(Data(count: 10), every: 0.2, on: slow)
        let answer = String(decoding: await slow.readAll(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer)")
        #expect(answer.contains(#"{"error":"The request body came at less than 1000 bytes per second ("#), "\(answer)")
        #expect(server.accessLog.last?["status"] as? Int == 408)
        #expect(await server.terminate() == 0)
    }

    /// A chunked body whose data stops while the client keeps sending a chunk's size line (or
    /// trailers): no body byte arrives to be checked, and each byte resets libmicrohttpd's idle
    /// timer, so only a deadline that runs on its own closes it (the 1 MiB received stays held
    /// until then).
    @Test func aChunkedBodyStalledBetweenChunksIsClosedAtTheMinimumRate() async throws {
        let server = try await ServerProcess(
            ["--model", "mobilenet=\(ServerProcess.mobilenet)", "--idle-timeout", "3600", "--min-body-rate", "1000000"])
        let slow = try RawConnection(port: server.port)
        slow.send(Self.classifyHead + "Transfer-Encoding: chunked\r\n\r\n")
        _ = slow.send(Data("100000\r\n".utf8) + Data(count: 0x10_0000) + Data("\r\n1;".utf8))
        // A chunk extension a byte every 0.3 s: at 1 MB/s, 1 MiB is due 11 s after the head (the
        // connection is closed 2 s later).
        await Self.trickle(Data("x".utf8), every: 0.3, on: slow)
        #expect(await slow.readAll().isEmpty, "a stalled body is closed without an answer")
        #expect(try await server.metric("vision_tasks_connections_slow_body_total") == 1)
        // The client sees the end as the socket is shut; the server frees the body as it closes.
        let freed = try await Waiting.poll(safetyNet: 60) {
            try await server.metric("vision_tasks_request_body_bytes") == 0
        }
        #expect(freed, "the 1 MiB received is released")
        #expect(await server.terminate() == 0)
    }

    @Test func aChunkedBodyOverTheLimitGets413BeforeItEnds() async throws {
        let server = try await ServerProcess(ServeTests.holdingConnections + ["--max-body-bytes", "1000000"])
        let connection = try RawConnection(port: server.port)
        connection.send(Self.classifyHead + "Transfer-Encoding: chunked\r\n\r\n")
        let chunk = Data("100000\r\n".utf8) + Data(count: 0x10_0000) + Data("\r\n".utf8)
        // Two chunks of 1 MiB and never the last one: only an answer before the end ends this.
        connection.send(chunk)
        connection.send(chunk)
        let answer = String(decoding: await connection.readAll(), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 413 "), "\(answer)")
        #expect(answer.hasSuffix(#"{"error":"The request body is larger than the limit of 1000000 bytes."}"#), "\(answer)")
        // The connection, silent after the answer, is closed by the server (the idle timeout is
        // an hour): SIGTERM waits for it.
        #expect(await server.terminate() == 0)
    }

    @Test func healthProbesAnswerWhenEveryConnectionIsTaken() async throws {
        let server = try await ServerProcess(ServeTests.holdingConnections + ["--max-connections", "2"])
        var holders = try [RawConnection(port: server.port), RawConnection(port: server.port)]
        // Until the server counts both holders and the connection asking.
        let counted = try await Waiting.poll(safetyNet: 120) {
            let metrics = try await RawConnection.get("/metrics", port: server.port)
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("vision_tasks_connections_open ") }
            return line.flatMap { Int($0.split(separator: " ")[1]) } ?? 0 >= 3
        }
        try #require(counted)
        #expect(try await RawConnection.get("/v2/health/ready", port: server.port).hasPrefix("HTTP/1.1 200 "))
        #expect(try await RawConnection.get("/v2/health/live", port: server.port).hasPrefix("HTTP/1.1 200 "))
        let refused = try await RawConnection.get("/v2", port: server.port)
        #expect(refused.hasPrefix("HTTP/1.1 503 "), "\(refused)")
        #expect(
            refused.hasSuffix(
                #"{"error":"The server has 2 connections open, its limit (--max-connections); the connections beyond it "#
                    + #"are kept for health probes."}"#), "\(refused)")
        holders.removeAll()  // closes them: a stopping server waits for open connections
        #expect(await server.terminate() == 0)
    }
}
