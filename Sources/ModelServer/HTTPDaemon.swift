import CHTTPDaemon
import CMicroHTTPD
import Foundation
import Synchronization

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

/// State shared by the C callbacks: the handler, the limits, the count of open exchanges and
/// the connections that have not started a request yet.
private final class DaemonContext: Sendable {
    let handler: any HTTPExchangeHandler
    let stats: ConnectionStats
    let deadlines: HeadDeadlines
    /// Connections beyond the connection limit (kept for health probes).
    private let softLimit: Int
    let minBodyBytesPerSecond: Double
    private let receivingBodyBudget: Int
    /// Set when the server stops: responses carry `Connection: close`, ending keep-alive.
    let closeConnections = Atomic(false)
    private struct Counts {
        var exchanges = 0
        /// Connections opened that have not begun a request (their identity, as an address).
        var fresh: Set<UInt> = []
        /// Connections handed to libmicrohttpd from the backlog whose start it has not reported
        /// yet (it starts them on its own thread).
        var handedOver = 0
        /// Connections opened beyond the connection limit.
        var reserved: Set<UInt> = []
    }
    private let counts = Mutex(Counts())
    private let changed = NSCondition()

    init(handler: any HTTPExchangeHandler, settings: HTTPDaemon.Settings, stats: ConnectionStats) {
        self.handler = handler
        self.stats = stats
        softLimit = settings.connectionLimit
        minBodyBytesPerSecond = Double(settings.minBodyBytesPerSecond)
        receivingBodyBudget = settings.receivingBodyBudget
        deadlines = HeadDeadlines(timeout: .seconds(settings.idleTimeoutSeconds), stats: stats)
    }

    func connectionOpened(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        let beyondLimit = stats.opened() > softLimit
        deadlines.watch(key, socket: vt_http_connection_socket(connection))
        update {
            _ = $0.fresh.insert(key)
            if beyondLimit { _ = $0.reserved.insert(key) }
            $0.handedOver = max($0.handedOver - 1, 0)
        }
    }

    /// Counts `count` more body bytes received; false (and nothing counted) when that would
    /// pass the budget.
    func receiveBody(_ count: Int) -> Bool { stats.receiveBody(count, budget: receivingBodyBudget) }

    func releaseBody(_ count: Int) { stats.releaseBody(count) }

    /// Whether the connection was opened beyond the connection limit.
    func isReserved(_ connection: OpaquePointer) -> Bool {
        counts.withLock { $0.reserved.contains(Self.key(connection)) }
    }

    fileprivate static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

    func handedOver(_ count: Int) { update { $0.handedOver += count } }

    func connectionClosed(_ connection: OpaquePointer) {
        let key = Self.key(connection)
        deadlines.forget(key)
        stats.closed()
        update {
            _ = $0.fresh.remove(key)
            _ = $0.reserved.remove(key)
        }
    }

    func opened(on connection: OpaquePointer) {
        deadlines.requestBegan(on: Self.key(connection))
        update {
            $0.exchanges += 1
            _ = $0.fresh.remove(Self.key(connection))
        }
    }

    func closed(on connection: OpaquePointer) {
        deadlines.requestEnded(on: Self.key(connection))
        update { $0.exchanges -= 1 }
    }

    private func update(_ change: (inout Counts) -> Void) {
        counts.withLock { change(&$0) }
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    func waitUntilIdle(until deadline: Date) {
        changed.lock()
        while counts.withLock({ $0.exchanges > 0 || !$0.fresh.isEmpty || $0.handedOver > 0 }) {
            if !changed.wait(until: deadline) { break }
        }
        changed.unlock()
    }
}

/// One request in progress, kept in libmicrohttpd's per-request pointer (retained) from its
/// first call to the completion callback.
private final class Exchange {
    let head: RequestHead
    /// The connection's socket, for answers sent before the body is in.
    let socket: Int32
    /// The connection's key in `HeadDeadlines`.
    let connection: UInt
    let started = ContinuousClock.now
    var bodyLimit = 0
    var body = Data()
    var received = 0
    /// Bytes counted against the daemon's budget for bodies being received.
    var counted = 0
    var form = FormFiles()
    var postProcessor: OpaquePointer?
    var failure: HTTPError?
    var status = 0
    var bytesSent = 0
    /// When the server answered before the body was in (413, 408): libmicrohttpd must not
    /// answer again, only close.
    var answeredEarly: ContinuousClock.Instant?

    /// A body must come at the minimum rate once this long has passed since its head.
    static let bodyRateGrace = Duration.seconds(10)
    /// How long after a body falls below the minimum rate the watchdog closes its connection: a
    /// byte that arrives meanwhile gets the 408 that says why.
    static let bodyRateSlack = Duration.seconds(2)
    /// How long the rest of a body over the limit is read (and dropped) after the 413: closing
    /// with unread bytes would reset the connection, and the client could lose the answer.
    static let linger = Duration.seconds(5)

    /// What the access handler does after a chunk of the body.
    enum Progress {
        case reading
        /// Answered before the body was in: read and drop the rest for `linger` at most.
        case lingering
        case close
    }

    init(head: RequestHead, socket: Int32, connection: UInt) {
        self.head = head
        self.socket = socket
        self.connection = connection
    }

    deinit {
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
    }

    /// Adds upload bytes, through the multipart parser when there is one. A body over the limit
    /// is answered 413 at once (a chunked body has no Content-Length to refuse it by), one that
    /// would pass the daemon's budget for bodies being received 503, one that comes slower than
    /// the minimum rate 408.
    func append(_ data: UnsafePointer<CChar>, count: Int, context: DaemonContext) -> Progress {
        received += count
        if let answeredEarly { return ContinuousClock.now - answeredEarly < Self.linger ? .reading : .close }
        guard received <= bodyLimit else {
            drop(context)
            answerEarly(HTTPError(413, "The request body is larger than the limit of \(bodyLimit) bytes."), context: context)
            return .lingering
        }
        guard context.receiveBody(count) else {
            drop(context)
            answerEarly(
                HTTPError(
                    503, "The server is receiving too many request bodies at once; try again.",
                    headers: [("Retry-After", "1")]), context: context)
            return .lingering
        }
        counted += count
        let minRate = context.minBodyBytesPerSecond
        let late = (ContinuousClock.now - started - Self.bodyRateGrace) / .seconds(1)
        if late > 0, Double(received) < late * minRate {
            context.stats.closedSlowBody()
            answerEarly(
                HTTPError(
                    408,
                    "The request body came at less than \(Int(minRate)) bytes per second (\(received) bytes in "
                        + "\(Int((late + Self.bodyRateGrace / .seconds(1)).rounded())) s); the connection is closed."),
                context: context)
            return .close
        }
        expectRest(context)
        guard failure == nil else { return .reading }
        append(data, count: count)
        return .reading
    }

    private func append(_ data: UnsafePointer<CChar>, count: Int) {
        if let postProcessor {
            if MHD_post_process(postProcessor, data, count) != .YES, failure == nil {
                failure = .badRequest("The multipart/form-data body is malformed.")
            }
        } else {
            data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append($0, count: count) }
        }
    }

    /// Sets the time by which more of the body must come: `bodyRateSlack` after its average rate
    /// since the head falls below the minimum (the watchdog closes the connection then, whether
    /// bytes that are not body bytes, such as a chunk's size line or trailers, keep it busy or not).
    func expectRest(_ context: DaemonContext) {
        let minRate = context.minBodyBytesPerSecond
        guard minRate > 0 else { return }
        let due = started + Self.bodyRateGrace + .seconds(Double(received) / minRate) + Self.bodyRateSlack
        context.deadlines.bodyDue(on: connection, by: due)
    }

    /// Frees the body and its count in the daemon's budget.
    func drop(_ context: DaemonContext) {
        body = Data()
        form.removeAll()
        context.releaseBody(counted)
        counted = 0
    }

    /// Sends `error` on the socket while libmicrohttpd is still reading the request, then ends
    /// the server's side of the connection.
    private func answerEarly(_ error: HTTPError, context: DaemonContext) {
        var response = error.response
        response.headers.append(("Connection", "close"))
        let bytes = response.wireBytes
        _ = bytes.withUnsafeBytes { vt_http_send_now(socket, $0.baseAddress, $0.count) }
        shutdown(socket, Int32(SHUT_WR))
        status = error.status
        bytesSent = response.body.count
        answeredEarly = .now
        // The lingering ends then, even if the client keeps sending bytes that are not body bytes.
        context.deadlines.bodyDue(on: connection, by: .now + Self.linger)
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

/// Collects the name/value pairs of one kind (headers, query arguments) of a connection.
private func values(of connection: OpaquePointer, kind: MHD_ValueKind, lowercasingKeys: Bool) -> [String: String] {
    final class Box { var values: [String: String] = [:]; let lowercasing: Bool; init(_ l: Bool) { lowercasing = l } }
    let box = Box(lowercasingKeys)
    withExtendedLifetime(box) {
        _ = MHD_get_connection_values(
            connection, kind,
            { cls, _, key, value in
                let box = Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue()
                let name = string(key)
                box.values[box.lowercasing ? name.lowercased() : name] = string(value)
                return .YES
            }, Unmanaged.passUnretained(box).toOpaque())
    }
    return box.values
}

private func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, exchange: Exchange, context: DaemonContext
) -> MHD_Result {
    exchange.status = response.status
    exchange.bytesSent = response.body.count
    let created = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MHD_destroy_response(created) }
    for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
    if context.closeConnections.load(ordering: .relaxed) { _ = MHD_add_response_header(created, "Connection", "close") }
    return MHD_queue_response(connection, UInt32(response.status), created)
}

/// The first call builds the exchange and asks for admission; the next ones carry body bytes;
/// the last one (no bytes) answers.
private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, requestPointer in
    guard let cls, let connection, let uploadSize, let requestPointer else { return .NO }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    guard let stored = requestPointer.pointee else {
        var address = [CChar](repeating: 0, count: 64)
        vt_http_client_address(connection, &address, address.count)
        let head = RequestHead(
            method: string(method), path: string(url),
            query: values(of: connection, kind: .GET_ARGUMENT_KIND, lowercasingKeys: false),
            headers: values(of: connection, kind: .HEADER_KIND, lowercasingKeys: true),
            client: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let exchange = Exchange(
            head: head, socket: vt_http_connection_socket(connection), connection: DaemonContext.key(connection))
        requestPointer.pointee = Unmanaged.passRetained(exchange).toOpaque()
        context.opened(on: connection)
        let length = head.header("content-length").flatMap { Int($0) }
        switch context.handler.admit(head, bodyLength: length, onReservedConnection: context.isReserved(connection)) {
        case .reject(let response):
            return queue(response, on: connection, exchange: exchange, context: context)
        case .accept(let limit):
            exchange.bodyLimit = limit
            exchange.expectRest(context)
            if head.header("content-type")?.lowercased().hasPrefix("multipart/form-data") == true {
                startMultipart(exchange, connection: connection)
            } else if let length, length <= limit {
                // One allocation of the announced size, not a doubling series up to it.
                exchange.body.reserveCapacity(length)
            }
            return .YES
        }
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0, let uploadData {
        let progress = exchange.append(uploadData, count: uploadSize.pointee, context: context)
        uploadSize.pointee = 0
        switch progress {
        case .reading: return .YES
        case .lingering:
            // A client that sends nothing more after the answer is not waited for either.
            vt_http_set_timeout(connection, UInt32(Exchange.linger / .seconds(1)))
            return .YES
        case .close: return .NO
        }
    }
    if exchange.answeredEarly != nil { return .NO }
    // The body is in: no deadline while it is answered.
    context.deadlines.requestBegan(on: exchange.connection)
    guard exchange.status == 0 else { return .YES }
    if let failure = exchange.failure {
        return queue(failure.response, on: connection, exchange: exchange, context: context)
    }
    let request = HTTPRequest(head: exchange.head, body: exchange.body, files: exchange.form.files)
    exchange.body = Data()
    exchange.form.removeAll()
    let response = context.handler.respond(to: request)
    return queue(response, on: connection, exchange: exchange, context: context)
}

private func startMultipart(_ exchange: Exchange, connection: OpaquePointer) {
    exchange.postProcessor = MHD_create_post_processor(
        connection, 64 * 1024,
        { cls, _, key, filename, _, _, data, offset, size in
            let exchange = Unmanaged<Exchange>.fromOpaque(cls!).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: size > 0 ? UnsafeRawPointer(data) : nil, count: size > 0 ? size : 0)
            exchange.form.receive(
                field: string(key), filename: filename.map { String(cString: $0) }, offset: offset, bytes: bytes)
            return .YES
        }, Unmanaged.passUnretained(exchange).toOpaque())
    if exchange.postProcessor == nil {
        exchange.failure = .badRequest(
            "The multipart/form-data body has no usable boundary (Content-Type: \(exchange.head.header("content-type") ?? "")).")
    }
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, connection, requestPointer, _ in
    guard let cls, let connection, let requestPointer, let stored = requestPointer.pointee else { return }
    requestPointer.pointee = nil
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    let exchange = Unmanaged<Exchange>.fromOpaque(stored).takeRetainedValue()
    exchange.drop(context)
    let elapsed = ContinuousClock.now - exchange.started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    context.handler.finished(
        exchange.head, status: exchange.status, bytes: exchange.bytesSent, seconds: seconds)
    context.closed(on: connection)
}

private let connectionHandler: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        context.connectionOpened(connection)
    } else {
        context.connectionClosed(connection)
    }
}
