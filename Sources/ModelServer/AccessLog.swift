import Foundation

/// One JSON line per finished request on stderr: time, client, method, path, status, response
/// bytes and duration in milliseconds.
enum AccessLog {
    static func record(_ head: RequestHead, status: Int, bytes: Int, seconds: Double) {
        let line: [String: Any] = [
            "time": Date().formatted(.iso8601), "client": head.client, "method": head.method, "path": head.path,
            "status": status, "bytes": bytes, "durationMs": (seconds * 1e5).rounded() / 100,
        ]
        guard var data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return
        }
        data.append(0x0A)
        // A closed or full stderr loses the log line; it must not stop the server (write(_:) traps).
        try? FileHandle.standardError.write(contentsOf: data)
    }
}
