import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `vision-tasks serve` the test starts on a free loopback port (`--port 0`; the port is read
/// from its "listening on" line) and stops with SIGTERM.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: the mutable state is guarded by `state`.
    let arguments: [String]
    private let process = Process()
    private let exited = DispatchSemaphore(value: 0)
    private let state = NSCondition()
    private var stderrText = ""
    private var stopped = false
    /// The bound port, once the server said it listens.
    private(set) var port = 0

    /// The model the tests serve.
    static var mobilenet: String { TestData.model("mobilenet_v1_0.25_224_quant.tflite").path }

    /// Starts `vision-tasks serve --port 0 --request-timeout 600 arguments` and waits until it listens.
    init(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let executable = try #require(
            VisionTasksTool.executable, "vision-tasks not found next to the test bundle", sourceLocation: sourceLocation)
        // A loaded machine can keep a request waiting for a classifier far beyond the default 30 s.
        self.arguments = ["serve", "--port", "0", "--request-timeout", "600"] + arguments
        let errors = Pipe()
        process.executableURL = executable
        process.arguments = self.arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        let reader = errors.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = reader.availableData
                state.withLock {
                    if chunk.isEmpty { stopped = true } else { stderrText += String(decoding: chunk, as: UTF8.self) }
                    state.broadcast()
                }
                if chunk.isEmpty { break }
            }
        }.start()
        let found = await Waiting.onOwnThread { [self] in waitForPort() }
        guard let found else {
            process.terminate()
            Issue.record("the server did not say where it listens:\n\(stderr)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        port = found
    }

    private func waitForPort() -> Int? {
        let deadline = Date().addingTimeInterval(120)
        return state.withLock {
            while true {
                if let range = stderrText.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                    return Int(stderrText[range].split(separator: ":").last ?? "")
                }
                if stopped || !state.wait(until: deadline) { return nil }
            }
        }
    }

    /// What the server printed on stderr so far.
    var stderr: String { state.withLock { stderrText } }

    /// The server's access-log lines so far, parsed.
    var accessLog: [[String: Any]] {
        stderr.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Sends `number` (SIGTERM, SIGINT) without waiting.
    func send(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Sends SIGTERM and waits for the exit; returns the exit status.
    func terminate(sourceLocation: SourceLocation = #_sourceLocation) async -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        guard await Waiting.wait(for: exited, safetyNet: 120) else {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("the server did not exit after SIGTERM:\n\(stderr)", sourceLocation: sourceLocation)
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// One HTTP exchange's outcome.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }
        /// `{"error": message}`'s message.
        var error: String? { (json as? [String: Any])?["error"] as? String }
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// Sends a request with URLSession.
    func request(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 120
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    /// The value of a metric line (`name{labels} value`) in `/metrics`, or nil.
    func metric(_ line: String) async throws -> Double? {
        let text = try await request("GET", "/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap {
            Double($0.split(separator: " ").last ?? "")
        }
    }
}
