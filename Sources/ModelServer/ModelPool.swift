import Foundation
import ImageTasks
import Synchronization

/// A model's instances, created at start: a request takes one for all of its images and gives
/// it back, so each instance serializes its calls and N requests run at once.
final class ModelPool: Sendable {
    let name: String
    /// "classifier", "labeler" or "embedder", shown in metadata.
    let kind: String
    /// "classify" or "embed": the task, and the verb of the model's v1 route.
    let verb: String
    /// The OIP output the model answers with.
    let output: ServedOutput
    /// The version the server reports and accepts (`ServedModel.version`).
    let version: String
    private let idle: Mutex<[any ServedTask]>
    private let available: DispatchSemaphore
    private let waitingCount = Mutex(0)

    init(_ model: ServedModel) {
        name = model.name
        kind = model.instances[0].kind
        verb = model.instances[0].verb
        output = model.instances[0].output
        version = model.version
        idle = Mutex(model.instances)
        available = DispatchSemaphore(value: model.instances.count)
    }

    /// Requests waiting for an instance now.
    var waiting: Int { waitingCount.withLock { $0 } }

    /// One of the pool's instances for `body`; waits up to `timeout` seconds for one.
    /// - Throws: `HTTPError` 503 when none came free in time; what `body` throws.
    func withInstance<Result>(
        timeout: Double, _ body: (any ServedTask) throws(HTTPError) -> Result
    ) throws(HTTPError) -> Result {
        waitingCount.withLock { $0 += 1 }
        let got = available.wait(timeout: .now() + timeout) == .success
        waitingCount.withLock { $0 -= 1 }
        guard got else {
            throw HTTPError(
                503, "No instance of model '\(name)' came free within \(timeout) s.", headers: [("Retry-After", "1")])
        }
        let instance = idle.withLock { $0.removeLast() }
        defer {
            idle.withLock { $0.append(instance) }
            available.signal()
        }
        return try body(instance)
    }
}
