import Foundation
import Synchronization

/// Closes connections whose request head is late: a client must send each request line and
/// headers within the timeout of opening the connection or of its previous response.
/// libmicrohttpd's own timeout counts silence, so a client sending a header byte now and then
/// (slowloris) would keep its connection, and its thread, forever; this deadline counts time.
///
/// A watchdog thread shuts the late socket down (libmicrohttpd then sees the end of the stream
/// and closes the connection itself). Nothing is sent: a late head may be a keep-alive
/// connection's silence, which clients expect to be closed quietly.
final class HeadDeadlines: @unchecked Sendable {
    // @unchecked: `watched` and `stopped` are guarded by `condition`.
    private struct Watched {
        /// The socket, valid until `forget`: libmicrohttpd reports a connection closed before
        /// it closes the socket, so a socket here is never another connection's.
        let socket: Int32
        /// Nil while a request is being received or answered.
        var deadline: ContinuousClock.Instant?
    }

    private let timeout: Duration
    private let stats: ConnectionStats
    private let condition = NSCondition()
    private var watched: [UInt: Watched] = [:]
    private var stopped = false

    /// Starts the watchdog thread; `stop()` ends it.
    init(timeout: Duration, stats: ConnectionStats) {
        self.timeout = timeout
        self.stats = stats
        Thread { [self] in run() }.start()
    }

    /// A new connection: its first request head is due within the timeout.
    func watch(_ connection: UInt, socket: Int32) {
        change { $0[connection] = Watched(socket: socket, deadline: .now + timeout) }
    }

    /// A request head is in: no deadline until its response is sent.
    func requestBegan(on connection: UInt) {
        change { $0[connection]?.deadline = nil }
    }

    /// A response is sent: the next request head is due within the timeout.
    func requestEnded(on connection: UInt) {
        let deadline = ContinuousClock.now + timeout
        change { $0[connection]?.deadline = deadline }
    }

    /// The connection is closed (before libmicrohttpd closes its socket).
    func forget(_ connection: UInt) {
        change { $0[connection] = nil }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func change(_ body: (inout [UInt: Watched]) -> Void) {
        condition.withLock {
            body(&watched)
            condition.signal()
        }
    }

    private func run() {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            let now = ContinuousClock.now
            for (connection, entry) in watched {
                guard let deadline = entry.deadline, deadline <= now else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                watched[connection]?.deadline = nil
                stats.closedLateHead()
            }
            let next = watched.values.compactMap(\.deadline).min() ?? now + .seconds(3600)
            let wait = (next - now).components
            _ = condition.wait(
                until: Date(timeIntervalSinceNow: Double(wait.seconds) + Double(wait.attoseconds) * 1e-18))
        }
    }
}

/// What the daemon counts of connections, for `/metrics`.
final class ConnectionStats: Sendable {
    private struct Counts {
        var open = 0
        var bodyBytes = 0
        var lateHeads = 0
        var refusedOnReserve = 0
    }
    private let counts = Mutex(Counts())

    /// Open connections.
    var open: Int { counts.withLock { $0.open } }
    /// Bytes of the request bodies held by requests in progress.
    var bodyBytes: Int { counts.withLock { $0.bodyBytes } }
    /// Connections closed because their request head was late.
    var lateHeads: Int { counts.withLock { $0.lateHeads } }
    /// Requests other than health probes refused on a connection kept for probes.
    var refusedOnReserve: Int { counts.withLock { $0.refusedOnReserve } }

    /// Counts a connection opened; returns how many are open with it.
    func opened() -> Int {
        counts.withLock {
            $0.open += 1
            return $0.open
        }
    }

    func closed() { counts.withLock { $0.open -= 1 } }

    /// Counts `count` more body bytes; false (and nothing counted) when that would pass `budget`.
    func receiveBody(_ count: Int, budget: Int) -> Bool {
        counts.withLock {
            guard $0.bodyBytes + count <= budget else { return false }
            $0.bodyBytes += count
            return true
        }
    }

    func releaseBody(_ count: Int) { counts.withLock { $0.bodyBytes -= count } }
    func closedLateHead() { counts.withLock { $0.lateHeads += 1 } }
    func refusedOnReserveConnection() { counts.withLock { $0.refusedOnReserve += 1 } }
}
