import Foundation

/// `model_server.py serve` on 127.0.0.1 at a port the OS picks, serving `root`; stopped by `stop()`
/// or when released. Faults are set per path with `inject`; every request is counted.
public final class StaticModelHost: @unchecked Sendable {
    // @unchecked: the process and pipe are used by the creating test only.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "model_server.py")

    /// The folder holding `root`, `requests.log` and `faults.json`; removed with the server.
    public let folder: URL
    /// The served folder: the index and the bundles.
    public let root: URL
    public let port: Int
    private let process = Process()
    private let input = Pipe()

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    public init() throws {
        folder = try TestData.temporaryDirectory()
        root = folder.appendingPathComponent("root", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, "serve", root.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is the port; reading blocks until the server is bound.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "model_server.py printed no port"])
        }
        self.port = port
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops the server (closing its stdin) and waits for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Makes requests for `path` (such as "/flowers-v2.zip") fail with `fault`: "500", "drop", "stall", "no-length",
    /// "redirect:URL" (a 302 to URL), "hold" (half the body, the rest after `release()`), "flood" (zeros without
    /// Content-Length, up to 1 GiB) or "flood-length" (the same, announced).
    public func inject(_ fault: String, at path: String) throws {
        try JSONSerialization.data(withJSONObject: [path: fault]).write(to: folder.appendingPathComponent("faults.json"))
    }

    /// Lets every "hold" request, waiting or to come, send the rest of its body.
    public func release() throws {
        try Data().write(to: folder.appendingPathComponent("release"))
    }

    /// The bytes a "flood" request for `path` managed to send before the client stopped reading,
    /// or nil while none has ended.
    public func floodedBytes(_ path: String) -> Int? {
        let log = (try? String(contentsOf: folder.appendingPathComponent("sent.log"), encoding: .utf8)) ?? ""
        let counts = log.split(separator: "\n").compactMap { line -> Int? in
            let fields = line.split(separator: " ")
            return fields.count == 2 && fields[0] == path ? Int(fields[1]) : nil
        }
        return counts.last
    }

    /// How many requests for `path` the server has received.
    public func requestCount(_ path: String) -> Int {
        let log = (try? String(contentsOf: folder.appendingPathComponent("requests.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0 == path }.count
    }

    /// Writes the zip `name` in the served folder from `entries` (see model_server.py) and returns its URL.
    @discardableResult
    public func makeZip(_ name: String, _ entries: [[String: Any]]) throws -> URL {
        let spec = folder.appendingPathComponent("\(name).spec.json")
        try JSONSerialization.data(withJSONObject: entries).write(to: spec)
        let zip = root.appendingPathComponent(name)
        let maker = Process()
        maker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        maker.arguments = ["python3", Self.script.path, "zip", zip.path, spec.path]
        try maker.run()
        maker.waitUntilExit()
        guard maker.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return zip
    }
}
