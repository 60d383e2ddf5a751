import Foundation
import ImageTasks
import ServedModels
import Synchronization

/// The HTTP inference service behind `vision-tasks serve` speaking the KServe Open Inference
/// Protocol v2 (REST, with the binary tensor data and classification extensions), a plain v1
/// classify route, a web page, Prometheus metrics and an access log.
package final class InferenceServer: Sendable {
    private let daemon: HTTPDaemon
    private let handler: RequestHandler
    private let limits: ServerLimits
    /// SIGTERM and SIGINT, caught from the start (before the caller says the server listens, so
    /// that none arriving then is lost or kills the process).
    private let signals = TerminationSignals()
    /// The address clients use, `http://HOST:PORT` with the bound port.
    package let address: String

    /// Starts listening; the catalog's models are already loaded.
    /// - Throws: `ServerStartError` when the token file is unreadable or the address cannot be bound.
    package init(configuration: ServerConfiguration, catalog: ServingCatalog) throws(ServerStartError) {
        let token = try configuration.tokenFile.map { file throws(ServerStartError) in try BearerToken(file: file) }
        let connections = ConnectionStats()
        handler = RequestHandler(catalog: catalog, limits: configuration.limits, token: token, connections: connections)
        let limits = configuration.limits
        self.limits = limits
        daemon = try HTTPDaemon(
            HTTPDaemon.Settings(
                host: configuration.host, port: configuration.port, connectionLimit: limits.maxConnections,
                reservedConnections: limits.reservedConnections, idleTimeoutSeconds: limits.idleTimeoutSeconds,
                receivingBodyBudget: limits.maxRequests * limits.maxBodyBytes,
                minBodyBytesPerSecond: limits.minBodyBytesPerSecond, connectionMemoryLimit: limits.connectionMemoryBytes),
            handler: handler, stats: connections)
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        address = "http://\(host):\(daemon.port)"
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting connections, lets the requests
    /// already received finish and returns. After SIGTERM, with `ServerLimits.drainSeconds`,
    /// readiness fails first for that long while everything is still served (another signal
    /// ends the drain early).
    package func serveUntilTerminated() {
        if signals.next() == SIGTERM, limits.drainSeconds > 0 {
            handler.draining.store(true, ordering: .relaxed)
            _ = signals.next(within: limits.drainSeconds)
        }
        daemon.stopAccepting()
        // A connection that never sends a request is closed by the idle timeout; a request in
        // progress ends within the request timeout (queue) plus the idle timeout (transfer).
        daemon.waitUntilIdle(limit: limits.requestTimeoutSeconds + 2 * Double(limits.idleTimeoutSeconds))
        daemon.stop()
        signals.cancel()
    }

    /// Whether a host is a loopback address (binding elsewhere needs a token or `--insecure`):
    /// `localhost`, a numeric IPv4 address in 127.0.0.0/8 or the IPv6 `::1`. Other host names
    /// are not, whatever they look like (`127.example.com` may resolve anywhere).
    package static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 { return UInt32(bigEndian: ipv4.s_addr) >> 24 == 127 }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, host, &ipv6) == 1 else { return false }
        return withUnsafeBytes(of: ipv6) { Array($0) } == [UInt8](repeating: 0, count: 15) + [1]
    }
}

/// SIGTERM and SIGINT as events: ignored by default, delivered to `next` in order.
/// `@unchecked Sendable`: the dispatch sources are made in `init` and only cancelled after; the
/// signals received are behind `Inbox`'s mutex.
private final class TerminationSignals: @unchecked Sendable {
    private final class Inbox: Sendable {
        let arrived = DispatchSemaphore(value: 0)
        let received = Mutex<[Int32]>([])
    }

    private let inbox = Inbox()
    private let sources: [any DispatchSourceSignal]

    init() {
        let inbox = inbox
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                inbox.received.withLock { $0.append(number) }
                inbox.arrived.signal()
            }
            source.resume()
            return source
        }
    }

    /// Waits for the next signal and returns it.
    func next() -> Int32 {
        inbox.arrived.wait()
        return inbox.received.withLock { $0.removeFirst() }
    }

    /// The next signal within `seconds`, or nil.
    func next(within seconds: Double) -> Int32? {
        guard inbox.arrived.wait(timeout: .now() + seconds) == .success else { return nil }
        return inbox.received.withLock { $0.removeFirst() }
    }

    func cancel() { sources.forEach { $0.cancel() } }
}
