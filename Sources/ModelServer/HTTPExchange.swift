import CHTTPDaemon
import CMicroHTTPD
import Foundation

/// One request in progress, kept in libmicrohttpd's per-request pointer (retained) from its
/// first call to the completion callback.
final class HTTPExchange {
    let head: RequestHead
    /// The connection's socket, for answers sent before the body is in.
    let socket: Int32
    /// The connection's key in `ConnectionDeadlines`.
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
    /// When the server answered before the body was in (a refusal at admission, 413, 408):
    /// libmicrohttpd must not answer again, only close.
    var answeredEarly: ContinuousClock.Instant?

    /// A body must come at the minimum rate once this long has passed since its head.
    static let bodyRateGrace = Duration.seconds(10)
    /// How long after a body falls below the minimum rate the watchdog closes its connection: a
    /// byte that arrives meanwhile gets the 408 that says why.
    static let bodyRateSlack = Duration.seconds(2)
    /// How long the rest of a body is read (and dropped) after an answer sent before it was in:
    /// closing with unread bytes would reset the connection, and the client could lose the answer.
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
            answerEarly(
                HTTPError(413, "The request body is larger than the limit of \(bodyLimit) bytes.").response, context: context)
            return .lingering
        }
        guard context.receiveBody(count) else {
            drop(context)
            answerEarly(
                HTTPError(
                    503, "The server is receiving too many request bodies at once; try again.",
                    headers: [("Retry-After", "1")]
                ).response, context: context)
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
                        + "\(Int((late + Self.bodyRateGrace / .seconds(1)).rounded())) s); the connection is closed."
                ).response, context: context)
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

    /// Sends `response` on the socket while libmicrohttpd is still reading the request, then ends
    /// the server's side of the connection; the body that follows is read and dropped.
    func answerEarly(_ response: HTTPResponse, context: DaemonContext) {
        var response = response
        response.headers.append(("Connection", "close"))
        let bytes = response.wireBytes
        _ = bytes.withUnsafeBytes { vt_http_send_now(socket, $0.baseAddress, $0.count) }
        shutdown(socket, Int32(SHUT_WR))
        status = response.status
        bytesSent = response.body.count
        answeredEarly = .now
        // The lingering ends then, even if the client keeps sending bytes that are not body bytes.
        context.deadlines.bodyDue(on: connection, by: .now + Self.linger)
    }
}
