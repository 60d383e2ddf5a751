import Foundation

/// Closes connections whose request head or body is late: a client must send each request line
/// and headers within the timeout of opening the connection or of its previous response, and a
/// body by the time its minimum rate sets. libmicrohttpd's own timeout counts silence, so a
/// client sending a header byte now and then (slowloris), or a chunk's size line or trailers a
/// byte at a time (no body byte arrives to be checked), would keep its connection, its thread
/// and the body received so far forever; these deadlines count time.
///
/// A watchdog thread shuts the late socket down (libmicrohttpd then sees the end of the stream
/// and closes the connection itself). Nothing is sent: a late head may be a keep-alive
/// connection's silence, which clients expect to be closed quietly.
final class ConnectionDeadlines: @unchecked Sendable {
    // @unchecked: `watched` and `stopped` are guarded by `condition`.
    private struct Watched {
        /// The socket, valid until `forget`: libmicrohttpd reports a connection closed before
        /// it closes the socket, so a socket here is never another connection's.
        let socket: Int32
        /// Nil while a request is being answered (or a body received with no minimum rate).
        var deadline: ContinuousClock.Instant?
        /// Whether the deadline is a body's (else a request head's), for the counts.
        var forBody = false
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
        change {
            $0[connection]?.deadline = deadline
            $0[connection]?.forBody = false
        }
    }

    /// A body is being received: the connection is closed at `deadline` unless a later call
    /// moves it or `requestBegan` clears it.
    func bodyDue(on connection: UInt, by deadline: ContinuousClock.Instant) {
        condition.withLock {
            guard let previous = watched[connection] else { return }
            watched[connection] = Watched(socket: previous.socket, deadline: deadline, forBody: true)
            // Each arrival moves the deadline later, which the watchdog finds when it wakes; it
            // is woken only for an earlier one (a lock and a signal for every chunk would cost more).
            if previous.deadline.map({ deadline < $0 }) ?? true { condition.signal() }
        }
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
                if entry.forBody { stats.closedSlowBody() } else { stats.closedLateHead() }
            }
            let next = watched.values.compactMap(\.deadline).min() ?? now + .seconds(3600)
            _ = condition.wait(until: Date(timeIntervalSinceNow: (next - now) / .seconds(1)))
        }
    }
}
