import Foundation
import ImageTasks
import Synchronization

/// A served model's instances, created at start: a request takes one for all of its images and
/// gives it back, so each instance serializes its calls and N instances serve N requests at once.
package final class ModelPool: Sendable {
    /// The name the model is served as.
    package let name: String
    /// What the model does (the kind of its instances).
    package let kind: ServedTaskKind
    /// The OIP output the model answers with.
    package let output: ServedOutput
    /// The version OIP reports (`versions` in the model metadata, `model_version` in inference
    /// responses) and the only one `/v2/models/NAME/versions/V` accepts: a model source's index
    /// version for a downloaded model, "1" for a file given by path.
    package let version: String
    private let idle: Mutex<[any ServedTask]>
    private let available: DispatchSemaphore
    private let waitingCount = Mutex(0)

    /// - Parameter instances: the loaded instances, at least one, all of one task.
    package init(name: String, instances: [any ServedTask], version: String = "1") {
        precondition(!instances.isEmpty, "a served model needs an instance")
        self.name = name
        kind = instances[0].kind
        output = instances[0].output
        self.version = version
        idle = Mutex(instances)
        available = DispatchSemaphore(value: instances.count)
    }

    /// Requests waiting for an instance now.
    package var waiting: Int { waitingCount.withLock { $0 } }

    /// Runs `body` with one of the pool's instances, waiting up to `timeout` seconds for one.
    /// - Returns: what `body` returns, or nil when no instance came free in time.
    /// - Throws: what `body` throws.
    package func withInstance<Result, Failure: Error>(
        timeout: Double, _ body: (any ServedTask) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        waitingCount.withLock { $0 += 1 }
        let got = available.wait(timeout: .now() + timeout) == .success
        waitingCount.withLock { $0 -= 1 }
        guard got else { return nil }
        let instance = idle.withLock { $0.removeLast() }
        defer {
            idle.withLock { $0.append(instance) }
            available.signal()
        }
        return try body(instance)
    }
}
