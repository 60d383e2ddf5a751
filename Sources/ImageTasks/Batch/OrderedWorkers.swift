import Foundation

/// Runs items through several worker threads and hands the results back in the order the items
/// came in, each as soon as it and every earlier one are done.
///
/// A producer submits items (`submit`, which waits while `queueCapacity` items are waiting, so a
/// fast reader cannot run ahead) and ends the input (`finishInput`); each worker takes the next
/// item, at most `window` items ahead of the next result to hand back (so that one slow image
/// holds at most `window` finished results in memory), and the consumer takes results in order
/// (`next`). Memory therefore stays bounded whatever the number of items.
package final class OrderedWorkers<Item: Sendable, Result: Sendable>: @unchecked Sendable {
    // Everything below is guarded by `condition`, which is broadcast on every change.
    private let condition = NSCondition()
    private var waiting: [(number: Int, item: Item)] = []
    private var waitingStart = 0
    private var finished: [Int: Result] = [:]
    private var submitted = 0
    private var delivered = 0
    private var inputEnded = false
    private var runningWorkers = 0
    private let queueCapacity: Int
    private let window: Int

    /// Starts one thread per element of `workers`, each calling its function on the items it takes.
    /// - Parameters:
    ///   - workers: one function per worker thread (each may own a classifier).
    ///   - window: how far ahead of the next result to hand back a worker may start an item (at
    ///     least the number of workers).
    package init(workers: [@Sendable (Item) -> Result], window: Int) {
        self.window = max(window, workers.count, 1)
        queueCapacity = max(workers.count, 1)
        runningWorkers = workers.count
        for (index, work) in workers.enumerated() {
            let thread = Thread { [self] in
                run(work)
            }
            thread.name = "vision-tasks worker \(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Adds an item, waiting while the queue is full.
    package func submit(_ item: Item) {
        condition.lock()
        while waiting.count - waitingStart >= queueCapacity { condition.wait() }
        waiting.append((submitted, item))
        submitted += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Says that no more items will come.
    package func finishInput() {
        condition.lock()
        inputEnded = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next result in item order, waiting for it; nil once every item's result was handed back
    /// and the input ended.
    package func next() -> Result? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = finished.removeValue(forKey: delivered) {
                delivered += 1
                condition.broadcast()
                return result
            }
            if inputEnded && delivered == submitted { return nil }
            condition.wait()
        }
    }

    /// Waits until every worker thread has returned (after the input ended and was all taken).
    package func waitForWorkers() {
        condition.lock()
        while runningWorkers > 0 { condition.wait() }
        condition.unlock()
    }

    private func run(_ work: (Item) -> Result) {
        while let (number, item) = take() {
            let result = work(item)
            condition.lock()
            finished[number] = result
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        runningWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next item to work on, waiting for one within the window; nil when the input ended
    /// and every item was taken.
    private func take() -> (Int, Item)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if waitingStart < waiting.count {
                let next = waiting[waitingStart]
                if next.number < delivered + window {
                    waitingStart += 1
                    if waitingStart > 64, waitingStart * 2 > waiting.count {
                        waiting.removeFirst(waitingStart)
                        waitingStart = 0
                    }
                    condition.broadcast()
                    return next
                }
            } else if inputEnded {
                return nil
            }
            condition.wait()
        }
    }
}
