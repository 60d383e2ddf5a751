import Foundation

/// A value shared between threads, guarded by an `NSLock` (a pthread mutex).
///
/// Tests use this rather than `Synchronization.Mutex`: on Linux that one waits with futexes
/// inside the standard library, which the thread sanitizer does not see, so contended use is
/// reported as a data race on the guarded value (seen with 8 threads sending frames under
/// `swift test --sanitize=thread`). The sanitizer knows pthread mutexes.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
