import Foundation

/// `vision-tasks serve`: an HTTP classification service speaking the KServe Open Inference
/// Protocol v2 (REST, with the binary tensor data and classification extensions), a plain v1
/// classify route, a web page, Prometheus metrics and an access log.
package final class ModelServer: Sendable {
    private let daemon: HTTPDaemon
    private let handler: RequestHandler
    private let limits: ServerLimits
    /// The address clients use, `http://HOST:PORT` with the bound port.
    package let address: String

    /// Starts listening; the models' classifiers are already loaded.
    /// - Throws: `ServerStartError` when the token file is unreadable or the address cannot be bound.
    package init(configuration: ServerConfiguration, models: [ServedModel]) throws(ServerStartError) {
        let token = try configuration.tokenFile.map { file throws(ServerStartError) in try BearerToken(file: file) }
        handler = RequestHandler(models: models, limits: configuration.limits, token: token)
        let limits = configuration.limits
        self.limits = limits
        daemon = try HTTPDaemon(
            HTTPDaemon.Settings(
                host: configuration.host, port: configuration.port, connectionLimit: limits.maxConnections,
                idleTimeoutSeconds: limits.idleTimeoutSeconds, connectionMemoryLimit: limits.connectionMemoryBytes),
            handler: handler)
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

    /// Whether a host is a loopback address (binding elsewhere needs a token or `--insecure`).
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
