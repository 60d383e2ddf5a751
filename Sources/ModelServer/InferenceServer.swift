import Foundation

/// The HTTP inference service behind `vision-tasks serve` speaking the KServe Open Inference
/// Protocol v2 (REST, with the binary tensor data and classification extensions), a plain v1
/// classify route, a web page, Prometheus metrics and an access log.
package final class InferenceServer: Sendable {
    private let daemon: HTTPDaemon
    private let handler: RequestHandler
    private let limits: ServerLimits
    /// The address clients use, `http://HOST:PORT` with the bound port.
    package let address: String

    /// Starts listening; the models' classifiers are already loaded.
    /// - Throws: `ServerStartError` when the token file is unreadable or the address cannot be bound.
    package init(configuration: ServerConfiguration, models: [ServedModel]) throws(ServerStartError) {
        let token = try configuration.tokenFile.map { file throws(ServerStartError) in try BearerToken(file: file) }
        let connections = ConnectionStats()
        handler = RequestHandler(models: models, limits: configuration.limits, token: token, connections: connections)
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
    /// already received finish and returns.
    package func serveUntilTerminated() {
        let stop = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        stop.wait()
        daemon.stopAccepting()
        // A connection that never sends a request is closed by the idle timeout; a request in
        // progress ends within the request timeout (queue) plus the idle timeout (transfer).
        daemon.waitUntilIdle(limit: limits.requestTimeoutSeconds + 2 * Double(limits.idleTimeoutSeconds))
        daemon.stop()
        sources.forEach { $0.cancel() }
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
