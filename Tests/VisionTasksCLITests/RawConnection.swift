import Foundation
import TestSupport

/// A TCP connection to the server on loopback, for what URLSession will not send: garbage,
/// half a request, a request the test finishes later. Reads wait on a thread of their own
/// (`Waiting.onOwnThread`), never on the test pool's.
final class RawConnection: @unchecked Sendable {
    // @unchecked: the socket is set once; reads and writes are the kernel's to serialize.
    private let socket: Int32

    /// Connects to 127.0.0.1:`port`; reads give up after `safetyNet` seconds (a hang guard).
    init(port: Int, safetyNet: Int = 120) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EMFILE) }
        var timeout = timeval(tv_sec: safetyNet, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    deinit { close(socket) }

    /// Sends all of `data`; false when the server closed the connection.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    func send(_ text: String) { send(Data(text.utf8)) }

    /// Reads until the server closes the connection (or the safety net).
    func readAll() async -> Data {
        await Waiting.onOwnThread { self.blockingReadAll() }
    }

    private func blockingReadAll() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data
    }

    /// Whether the server has sent something or closed the connection (a read would not block):
    /// a client sending slowly stops then, so that its next bytes do not make the server's
    /// kernel reset the connection before the answer is read.
    var hasAnswered: Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    /// `GET path` on a connection of its own (`Connection: close`): the whole response as text.
    static func get(_ path: String, port: Int) async throws -> String {
        let connection = try RawConnection(port: port)
        connection.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return String(decoding: await connection.readAll(), as: UTF8.self)
    }

    /// The status code of the response read to the end, or nil when none came.
    func responseStatus() async -> Int? {
        let text = String(decoding: await readAll(), as: UTF8.self)
        guard text.hasPrefix("HTTP/1.") else { return nil }
        return Int(text.split(separator: " ").dropFirst().first ?? "")
    }
}
