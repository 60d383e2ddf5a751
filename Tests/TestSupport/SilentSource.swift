import Foundation

/// Network sources on 127.0.0.1 that never deliver a byte, for timeouts; and when the code
/// under test reached them, so that a test times the wait itself rather than what came before
/// it (starting a process, loading a model), which a loaded machine can stretch.
public enum SilentSource {
    /// A TCP server that never accepts: clients connect (the kernel completes the handshake)
    /// and then wait for data for ever. Open while the value lives.
    public final class TCPServer: @unchecked Sendable {
        public let descriptor: Int32
        public let port: UInt16
        public var url: String { "tcp://127.0.0.1:\(port)" }

        public init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure("socket: errno \(errno)") }
            var address = SilentSource.loopback()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && listen(descriptor, 4) == 0 && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard bound else {
                close(descriptor)
                throw Failure("bind/listen: errno \(errno)")
            }
            self.descriptor = descriptor
            port = UInt16(bigEndian: address.sin_port)
        }

        deinit { close(descriptor) }

        /// Waits, on a thread of its own, until a client has connected (a connection waits in
        /// the listening queue: the socket polls readable), and returns `monotonicSeconds()`
        /// then; nil after `safetyNet` seconds.
        public func connectionTime(safetyNet seconds: Double) async -> Double? {
            let descriptor = descriptor
            return await Waiting.onOwnThread {
                var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                return poll(&entry, 1, Int32(seconds * 1000)) == 1 ? monotonicSeconds() : nil
            }
        }
    }

    /// A UDP port on 127.0.0.1 that was free a moment ago (bound to port 0, read, released):
    /// nothing will ever arrive there.
    public static func freeUDPPort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = loopback()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw Failure("bind: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Waits until some process has bound a UDP socket to `port` (it shows in `/proc/net/udp`),
    /// polled on a thread of its own, and returns `monotonicSeconds()` then; nil after
    /// `safetyNet` seconds.
    public static func udpBindTime(port: UInt16, safetyNet seconds: Double) async -> Double? {
        let local = String(format: ":%04X ", port)
        let seen = await Waiting.poll(safetyNet: seconds, every: 0.002) {
            let table = (try? String(contentsOfFile: "/proc/net/udp", encoding: .utf8)) ?? ""
            // "  sl  local_address rem_address ...": the second field is ADDRESS:PORT in hex.
            return table.split(separator: "\n").dropFirst().contains { line in
                line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map { "\($0) ".hasSuffix(local) }
                    ?? false
            }
        }
        return seen ? monotonicSeconds() : nil
    }

    static func loopback() -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        return address
    }

    /// A socket call that failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
