import CHTTPDaemon
import CMicroHTTPD
import Foundation

/// What the daemon asks of the server: a decision when a request's head is in, the response
/// once its body is read, and a call when the response has been sent (or the connection died).
protocol HTTPExchangeHandler: Sendable {
    /// Whether to read the body of a request whose head is in, or to answer at once (an error).
    /// `bodyLength` is the Content-Length, if the client sent one; `onReservedConnection`: the
    /// connection was opened beyond the connection limit, in the room kept for health probes.
    func admit(_ head: RequestHead, bodyLength: Int?, onReservedConnection: Bool) -> Admission
    /// The response to a request whose body is read.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// Called once per admitted or rejected request when it is over.
    func finished(_ head: RequestHead, status: Int, bytes: Int, seconds: Double)
}

/// The outcome of `HTTPExchangeHandler.admit`.
enum Admission: Sendable {
    /// Read the body (at most `bodyLimit` bytes), then call `respond`.
    case accept(bodyLimit: Int)
    /// Answer at once; the body is not read.
    case reject(HTTPResponse)
}

/// An HTTP/1.1 server over libmicrohttpd: a thread per connection (a blocking handler never
/// stalls another connection), a connection limit with room kept for health probes, an idle
/// timeout, a deadline for each request head, a minimum body rate and a per-connection memory
/// limit for headers (slow or oversized clients cost a thread for a bounded time, never a
/// classifier). libmicrohttpd parses HTTP, chunked bodies and multipart forms.
final class HTTPDaemon: @unchecked Sendable {
    // @unchecked: `daemon` and `context` are set once in init; libmicrohttpd is thread-safe for
    // the calls made on them, and the context's state is locked.
    private let daemon: OpaquePointer
    private let context: Unmanaged<DaemonContext>
    /// The bound port (the chosen one when 0 was asked for).
    let port: UInt16

    /// Listen limits; see `ServerLimits`.
    struct Settings {
        var host: String
        var port: UInt16
        var connectionLimit: Int
        /// Connections accepted beyond `connectionLimit` for health probes only.
        var reservedConnections: Int
        /// Also the deadline of each request head.
        var idleTimeoutSeconds: Int
        /// Bytes of request bodies being received, in all; a body that would pass it gets 503.
        var receivingBodyBudget: Int
        var minBodyBytesPerSecond: Int
        var connectionMemoryLimit: Int
    }

    /// Starts listening.
    /// - Throws: `ServerStartError` when the address cannot be resolved or bound.
    init(_ settings: Settings, handler: any HTTPExchangeHandler, stats: ConnectionStats) throws(ServerStartError) {
        let context = Unmanaged.passRetained(DaemonContext(handler: handler, settings: settings, stats: stats))
        var error = [CChar](repeating: 0, count: 256)
        let started = settings.host.withCString { host in
            var options = vt_http_options(
                host: host, port: settings.port,
                connection_limit: UInt32(settings.connectionLimit + settings.reservedConnections),
                connection_timeout_seconds: UInt32(settings.idleTimeoutSeconds),
                connection_memory_limit: settings.connectionMemoryLimit,
                handler: accessHandler, handler_context: context.toOpaque(),
                completed: completedHandler, completed_context: context.toOpaque(),
                connection_notify: connectionHandler, connection_context: context.toOpaque())
            return vt_http_start(&options, &error, error.count)
        }
        guard let started else {
            context.takeUnretainedValue().deadlines.stop()
            context.release()
            throw ServerStartError(
                message: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        daemon = started
        self.context = context
        port = vt_http_bound_port(started)
    }

    /// Stops accepting connections (those the kernel already completed are still served);
    /// requests already received go on, and every response from now on closes its connection.
    func stopAccepting() {
        let context = context.takeUnretainedValue()
        context.closeConnections.store(true, ordering: .relaxed)
        context.handedOver(Int(vt_http_stop_accepting(daemon)))
    }

    /// Waits until no request is in progress (received and not yet answered and sent) and
    /// every connection has sent its first request (or was closed by the idle timeout), at
    /// most `limit` seconds.
    func waitUntilIdle(limit: Double) {
        context.takeUnretainedValue().waitUntilIdle(until: Date(timeIntervalSinceNow: limit))
    }

    /// Closes every connection and stops the threads.
    func stop() {
        MHD_stop_daemon(daemon)
        context.takeUnretainedValue().deadlines.stop()
        context.release()
    }
}

/// Why the server could not start.
package struct ServerStartError: Error, Sendable {
    package let message: String
}
