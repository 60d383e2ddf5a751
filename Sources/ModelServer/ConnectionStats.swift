import Synchronization

/// What the daemon counts of connections, for `/metrics`.
final class ConnectionStats: Sendable {
    private struct Counts {
        var open = 0
        var bodyBytes = 0
        var lateHeads = 0
        var slowBodies = 0
        var refusedOnReserve = 0
    }
    private let counts = Mutex(Counts())

    /// Open connections.
    var open: Int { counts.withLock { $0.open } }
    /// Bytes of the request bodies held by requests in progress.
    var bodyBytes: Int { counts.withLock { $0.bodyBytes } }
    /// Connections closed because their request head was late.
    var lateHeads: Int { counts.withLock { $0.lateHeads } }
    /// Connections closed because a body was not in by its minimum rate's deadline.
    var slowBodies: Int { counts.withLock { $0.slowBodies } }
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
    func closedSlowBody() { counts.withLock { $0.slowBodies += 1 } }
    func refusedOnReserveConnection() { counts.withLock { $0.refusedOnReserve += 1 } }
}
