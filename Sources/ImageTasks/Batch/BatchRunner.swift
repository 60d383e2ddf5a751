import Foundation
import TasksCommon

/// Runs a task over an `ImageSource`: the images go through worker threads, each with a task
/// instance of its own (`OrderedWorkers`), while another thread reads the source, and the
/// outcomes are handed back in input order, each as soon as its turn comes.
package enum BatchRunner {
    /// Runs `tasks` (one worker each) over `source`, calling `deliver` on the calling thread with
    /// each image's outcome in input order.
    /// - Returns: the error that ended the reading of a list early, or nil.
    package static func run<Task: ImageTask>(
        source: ImageSource, tasks: [Task], deliver: (ImageOutcome<Task.Output>) -> Void
    ) -> TasksError? {
        let workers = OrderedWorkers<ImageInput, ImageOutcome<Task.Output>>(
            workers: tasks.map { task in { input in outcome(of: input, task: task) } }, window: 2 * tasks.count)
        let reading = SourceReading(source: source, workers: workers)
        while let outcome = workers.next() { deliver(outcome) }
        workers.waitForWorkers()
        return reading.waitForEnd()
    }

    /// How many workers a run needs: `jobs`, but at most one per image when their number is known.
    package static func workerCount(jobs: Int, source: ImageSource) -> Int {
        max(1, min(jobs, source.knownCount ?? jobs))
    }

    /// One image's outcome; an unreadable input is its own error.
    package static func outcome<Task: ImageTask>(of input: ImageInput, task: Task) -> ImageOutcome<Task.Output> {
        switch input {
        case .file(let path):
            return ImageOutcome(path: path, result: Result { () throws(TasksError) in try task.process(file: path) })
        case .unreadable(let path, let error):
            return ImageOutcome(path: path, result: .failure(error))
        }
    }
}

/// The thread that reads an `ImageSource` into the workers (for a list, as its entries arrive).
private final class SourceReading<Outcome: Sendable>: @unchecked Sendable {
    private let ended = DispatchSemaphore(value: 0)
    // Written by the reading thread before it signals `ended`, read after waiting for it.
    private var failure: TasksError?

    init(source: ImageSource, workers: OrderedWorkers<ImageInput, Outcome>) {
        // The source moves to the thread, which alone uses it from now on.
        nonisolated(unsafe) let source = source
        let thread = Thread { [self] in
            failure = source.forEach { workers.submit($0) }
            workers.finishInput()
            ended.signal()
        }
        thread.name = "vision-tasks reader"
        thread.start()
    }

    /// Waits for the reading to end; the error that ended a list early, if any.
    func waitForEnd() -> TasksError? {
        ended.wait()
        return failure
    }
}
