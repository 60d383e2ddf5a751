import CHTTPDaemon
import CMicroHTTPD
import Foundation
import Synchronization

/// State shared by the C callbacks: the handler, the limits, the count of open exchanges and
/// the connections that have not started a request yet.
final class DaemonContext: Sendable {
    let handler: any HTTPExchangeHandler
    let stats: ConnectionStats
    let deadlines: ConnectionDeadlines
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
        deadlines = ConnectionDeadlines(timeout: .seconds(settings.idleTimeoutSeconds), stats: stats)
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

    static func key(_ connection: OpaquePointer) -> UInt { UInt(bitPattern: Int(bitPattern: connection)) }

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
