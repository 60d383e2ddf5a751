import Foundation
import Testing

/// Waiting for events (a process exits, a line arrives, a client connects) without holding one
/// of the threads the tests share.
///
/// The parallel tests run on Swift concurrency's pool, a thread per core: a test that blocks
/// one of them (a synchronous test, a semaphore wait) delays every other test's next step, by
/// tens of seconds on a busy 2-core machine. So a test never measures time from inside the pool
/// and never treats "N seconds have passed" as an event: it waits for the event itself, on a
/// thread of its own, and the deadline it gives is only a safety net against a hang (generous:
/// reaching it fails the test).
public enum Waiting {
    /// Runs `body`, which may block, on a new thread and returns its result.
    public static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Waits for `semaphore` on a thread of its own; false when `safetyNet` seconds passed first.
    public static func wait(for semaphore: DispatchSemaphore, safetyNet seconds: Double) async -> Bool {
        await onOwnThread { semaphore.wait(timeout: .now() + seconds) == .success }
    }

    /// Checks `condition` every few milliseconds on a thread of its own until it holds; false
    /// when `safetyNet` seconds passed first. For events nothing signals (a file descriptor
    /// appearing, a socket being bound).
    public static func poll(
        safetyNet seconds: Double, every interval: Double = 0.005,
        until condition: @escaping @Sendable () -> Bool
    ) async -> Bool {
        await onOwnThread { blockingPoll(safetyNet: seconds, every: interval, until: condition) }
    }

    /// `poll` for a condition that is itself asynchronous (an HTTP request to a server the test
    /// started): checked every few milliseconds until it holds; false when `safetyNet` seconds
    /// passed first. Between checks the task suspends, holding no thread.
    public static func poll(
        safetyNet seconds: Double, every interval: Double = 0.01, untilAsync condition: () async throws -> Bool
    ) async throws -> Bool {
        let deadline = monotonicSeconds() + seconds
        while try await !condition() {
            if monotonicSeconds() > deadline { return false }
            try await Task.sleep(for: .seconds(interval))
        }
        return true
    }

    /// `poll` for a thread the test owns already (it blocks the calling thread).
    public static func blockingPoll(
        safetyNet seconds: Double, every interval: Double = 0.005, until condition: () -> Bool
    ) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while !condition() {
            if monotonicSeconds() > deadline { return false }
            Thread.sleep(forTimeInterval: interval)
        }
        return true
    }
}

/// Seconds since an arbitrary start (`CLOCK_MONOTONIC`), for timing a call or a process.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Expects a source that never delivers to have given up after about its configured timeout:
/// not before 0.9 of it, and before 5 times it. The upper bound leaves a loaded machine seconds
/// of slack with the 1 s timeouts the tests use, yet stays below the default timeout (10 s), so
/// that a source that ignored the configured timeout still fails.
///
/// Where the wait cannot be timed exactly, give two durations: `outer`, timed from before the
/// wait began (it may include work before it, such as starting a process), checked against the
/// lower bound; and `inner`, timed from when the wait was seen to have begun, checked against
/// the upper bound. So neither bound fails because of slow work outside the wait.
public func expectGaveUp(
    outer: Double, inner: Double, timeoutMilliseconds: Int,
    _ context: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    let timeout = Double(timeoutMilliseconds) / 1000
    #expect(
        outer >= 0.9 * timeout,
        "gave up \(String(format: "%.2f", outer)) s after starting, before the timeout of \(timeoutMilliseconds) ms \(context())",
        sourceLocation: sourceLocation)
    #expect(
        inner < 5 * timeout,
        "gave up \(String(format: "%.2f", inner)) s after it began to wait, with a timeout of \(timeoutMilliseconds) ms \(context())",
        sourceLocation: sourceLocation)
}

/// `expectGaveUp(outer:inner:timeoutMilliseconds:)` for a wait timed exactly.
public func expectGaveUp(
    after seconds: Double, timeoutMilliseconds: Int, _ context: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectGaveUp(
        outer: seconds, inner: seconds, timeoutMilliseconds: timeoutMilliseconds, context(), sourceLocation: sourceLocation)
}
