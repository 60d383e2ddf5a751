import Foundation
import Testing

extension Trait where Self == TimeLimitTrait {
    /// A time limit that only catches a hang. A test's time limit runs on the wall clock from
    /// when the test is started, and a parallel run on a busy machine can hold a started test
    /// for minutes before it gets a thread (a whole run took 11 minutes at a load of 15 per
    /// core); so this is generous, and a bound on the work itself is checked with `CPUTimeBudget`.
    public static var hangGuard: Self { .timeLimit(.minutes(20)) }
}

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): the work a synchronous
/// call does, however busy the machine is.
public func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}

/// A bound on the work a synchronous test does on its thread, in CPU time, which other tests
/// and processes do not stretch as they stretch wall-clock time:
///
///     let budget = CPUTimeBudget(.seconds(60))
///     defer { budget.expectWithin() }
public struct CPUTimeBudget {
    public let limit: Duration
    private let start = threadCPUTime()
    private let sourceLocation: SourceLocation

    public init(_ limit: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        self.limit = limit
        self.sourceLocation = sourceLocation
    }

    /// Expects the thread's CPU time since `init` to be under `limit`.
    public func expectWithin() {
        let used = threadCPUTime() - start
        #expect(used < limit, "took \(used) of CPU time; the limit is \(limit)", sourceLocation: sourceLocation)
    }
}
