import Dispatch

/// The fit's own threads: a body run for each of a fixed number of lanes at once. The lanes'
/// matrix products are kept below OpenBLAS's size for threading them (m · n · k ≤ 262,144), so
/// that its threads stay asleep rather than spinning (`sched_yield`) on the cores the lanes
/// use: they wake for a large product and spin for about 0.1 s after it.
enum Lanes {
    /// How many lanes each parallel step has: fixed, not the machine's core count, so that a fit
    /// gives the same bits on every machine (each lane's share of the work depends only on the
    /// problem's size, and the callers add the lanes' sums in lane order).
    static let count = 4

    /// Runs `body(lane)` for each lane in `0..<count`, on threads of their own, and returns when
    /// all are done. `body` must touch only what its lane owns or what no lane writes.
    static func run(_ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            let work = Work(body: body)
            DispatchQueue.concurrentPerform(iterations: count) { work.body($0) }
        }
    }

    /// `@unchecked Sendable`: `run`'s callers keep each lane to what it owns, and `run` returns
    /// only when every lane is done with `body`.
    private struct Work: @unchecked Sendable {
        let body: (Int) -> Void
    }
}
