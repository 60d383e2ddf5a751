import Foundation
import TasksCommon

/// Runs classify or label over an `ImageSource`: the images go through worker threads, each with
/// its own classifier or labeler (`OrderedWorkers`), while another thread reads the source, and
/// the outcomes are printed in input order, each as soon as its turn comes.
struct BatchRun {
    let source: ImageSource
    let format: OutputFormat
    /// Worker threads (at most one per image when their number is known).
    let jobs: Int
    /// Whether to show the progress line (when stderr is a terminal).
    let progress: Bool
    let verbose: Bool
    /// The CSV columns (classifications or labels), for `--format csv`.
    var csvColumns: CSVOutcomePrinter.Columns = .classifications
    /// The HTML report every outcome is added to (`--report`), if any.
    var report: ImageReport?

    /// Loads one engine per worker with `makeWorker` (quietly unless `verbose`; it is given the
    /// number of workers), then runs.
    /// - Returns: the exit status. From arguments: 0 when every image succeeded, 1 when any
    ///   failed. From a list: 0 even when images failed (each has its error line), 1 when the
    ///   list could not be read to its end. Both: 1 when a model could not be loaded or a result
    ///   could not be printed.
    func run(makeWorker: (_ workers: Int) throws -> @Sendable (FileSystemPath) -> ImageOutcome.Payload) -> Int32 {
        let total = source.knownCount
        let count = max(1, min(jobs, total ?? jobs))
        guard let works = ModelLoading.load(verbose: verbose, { try (0..<count).map { _ in try makeWorker(count) } }) else {
            return 1
        }
        let workers = OrderedWorkers<ImageInput, ImageOutcome>(
            workers: works.map { work in
                { input in
                    switch input {
                    case .file(let path): ImageOutcome(path: path, payload: work(path))
                    case .unreadable(let path, let error): ImageOutcome(path: path, payload: .error(error))
                    }
                }
            }, window: 2 * count)
        let reading = SourceReading(source: source, workers: workers)
        var printer = OutcomePrinter(format: format, csvColumns: csvColumns)
        var progressLine = ProgressLine(total: total, requested: progress)
        var failures = 0, done = 0
        while let outcome = workers.next() {
            if outcome.failed { failures += 1 }
            progressLine.clear()
            printer.add(outcome)
            report?.add(outcome)
            done += 1
            progressLine.update(done: done)
        }
        progressLine.clear()
        printer.finish()
        report?.finish()
        workers.waitForWorkers()
        let listFailure = reading.waitForEnd()
        if let listFailure { StandardStreams.reportError(listFailure) }
        if printer.printingFailed || listFailure != nil || report?.failed == true { return 1 }
        if case .list = source.origin { return 0 }
        return failures == 0 ? 0 : 1
    }
}

/// The thread that reads an `ImageSource` into the workers (for a list, as its entries arrive).
private final class SourceReading: @unchecked Sendable {
    private let ended = DispatchSemaphore(value: 0)
    // Written by the reading thread before it signals `ended`, read after waiting for it.
    private var failure: TasksError?

    init(source: ImageSource, workers: OrderedWorkers<ImageInput, ImageOutcome>) {
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

extension BatchRun {
    /// The images of a command: its arguments (folders expanded) or its `--files-from` list, with
    /// `--shard` and `--resume` applied; nil after reporting on stderr a list or resume file
    /// that cannot be opened.
    /// - Throws: `UsageError` for a folder argument without images.
    static func source(images: [FileSystemPath], options: BatchOptionGroup) throws(UsageError) -> ImageSource? {
        let origin: ImageSource.Origin
        if let list = options.filesFrom {
            do throws(TasksError) {
                origin = .list(try PathListReader(path: list, nullSeparated: options.nullSeparated))
            } catch {
                StandardStreams.reportError(error)
                return nil
            }
        } else {
            origin = .arguments(try ImageFileList.expand(images))
        }
        var completed: Set<String> = []
        if let resume = options.resume {
            do throws(TasksError) {
                completed = try ResumeRecords.completedImages(in: resume)
            } catch {
                StandardStreams.reportError(error)
                return nil
            }
        }
        return ImageSource(origin: origin, shard: options.shard, completed: completed)
    }
}
