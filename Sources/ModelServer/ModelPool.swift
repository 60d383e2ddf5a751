import Foundation
import Synchronization

/// A model's classifiers, created at start: a request takes one for all of its images and
/// gives it back, so each classifier serializes its calls and N requests run at once.
final class ModelPool: Sendable {
    let name: String
    /// "classifier" (`--model`) or "labeler" (`--label`), shown in metadata.
    let kind: String
    private let idle: Mutex<[any ImageClassifying]>
    private let available: DispatchSemaphore
    private let waitingCount = Mutex(0)

    init(name: String, kind: String, classifiers: [any ImageClassifying]) {
        precondition(!classifiers.isEmpty, "a pool needs a classifier")
        self.name = name
        self.kind = kind
        idle = Mutex(classifiers)
        available = DispatchSemaphore(value: classifiers.count)
    }

    /// Requests waiting for a classifier now.
    var waiting: Int { waitingCount.withLock { $0 } }

    /// One of the pool's classifiers for `body`; waits up to `timeout` seconds for one.
    /// - Throws: `HTTPError` 503 when none came free in time; what `body` throws.
    func withClassifier<Result>(
        timeout: Double, _ body: (any ImageClassifying) throws(HTTPError) -> Result
    ) throws(HTTPError) -> Result {
        waitingCount.withLock { $0 += 1 }
        let got = available.wait(timeout: .now() + timeout) == .success
        waitingCount.withLock { $0 -= 1 }
        guard got else {
            throw HTTPError(
                503, "No classifier of model '\(name)' came free within \(timeout) s.", headers: [("Retry-After", "1")])
        }
        let classifier = idle.withLock { $0.removeLast() }
        defer {
            idle.withLock { $0.append(classifier) }
            available.signal()
        }
        return try body(classifier)
    }
}
