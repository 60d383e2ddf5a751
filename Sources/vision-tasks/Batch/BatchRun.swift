import Foundation
import ImageTasks
import TasksCommon

/// Runs classify, label or embed over an `ImageSource` with the task layer's `BatchRunner`, and
/// prints the outcomes in input order (`OutcomePrinter`), with the progress line, the HTML
/// report and, after several images, the summary line on stderr (`BatchSummary`).
struct BatchRun {
    let source: ImageSource
    let format: OutputFormat
    /// `--jobs` (worker threads, at most one per image when their number is known),
    /// `--no-progress` (the progress line shows only when stderr is a terminal) and `--resume`.
    let options: BatchOptionGroup
    let verbose: Bool
    /// The HTML report every outcome is added to (`--report`), if any.
    var report: ImageReport?

    /// Loads one task per worker with `makeTask` (quietly unless `verbose`; it is given the
    /// number of workers), then runs. When `--resume` left no image, says so and loads nothing.
    /// - Returns: the exit status. From arguments: 0 when every image succeeded, 1 when any
    ///   failed. From a list: 0 even when images failed (each has its error line), 1 when the
    ///   list could not be read to its end. Both: 1 when a model could not be loaded or a result
    ///   could not be printed.
    func run<Task: ImageTask>(makeTask: (_ workers: Int) throws -> Task) -> Int32 where Task.Output: PrintableOutput {
        var printer = OutcomePrinter<Task.Output>(format: format)
        if let nothingToDo {
            StandardStreams.warn(nothingToDo)
            return finish(&printer, listFailure: nil)
        }
        let count = BatchRunner.workerCount(jobs: options.jobs, source: source)
        guard let tasks = ModelLoading.load(verbose: verbose, { try (0..<count).map { _ in try makeTask(count) } }) else {
            return 1
        }
        var progressLine = ProgressLine(total: source.knownCount, requested: options.progress)
        let start = ContinuousClock.now
        var failures = 0, done = 0
        let listFailure = BatchRunner.run(source: source, tasks: tasks) { outcome in
            if outcome.failed { failures += 1 }
            progressLine.clear()
            printer.add(outcome)
            report?.add(outcome)
            done += 1
            progressLine.update(done: done)
        }
        progressLine.clear()
        let status = finish(&printer, listFailure: listFailure)
        if done > 1 { StandardStreams.warn(BatchSummary(images: done, failed: failures, elapsed: .now - start).line) }
        if status != 0 || source.isList { return status }
        return failures == 0 ? 0 : 1
    }

    /// Ends the output, the report and the reading of the list.
    /// - Returns: 1 when a result or the report could not be written, or the list could not be
    ///   read to its end; else 0.
    private func finish<Output>(_ printer: inout OutcomePrinter<Output>, listFailure: TasksError?) -> Int32 {
        printer.finish()
        report?.finish()
        if let listFailure { StandardStreams.reportError(listFailure) }
        return printer.printingFailed || listFailure != nil || report?.failed == true ? 1 : 0
    }

    /// "Nothing to do: all 12 images already have records in OUT.jsonl." when `--resume` left
    /// out every image of the arguments; nil otherwise. (A list's images are known only as it is
    /// read.)
    private var nothingToDo: String? {
        guard let resume = options.resume, source.knownCount == 0,
            let given = ImageSource(origin: source.origin, shard: source.shard).knownCount, given > 0
        else { return nil }
        let file = TableText.escaped(resume)
        return given == 1
            ? "Nothing to do: the image already has a record in \(file)."
            : "Nothing to do: all \(BatchSummary.count(given)) images already have records in \(file)."
    }
}

extension BatchRun {
    /// The images of a command: its arguments (folders expanded) or its `--files-from` list, with
    /// `--shard` and `--resume` applied, once `--output` is standard output (`BatchOutputFile`);
    /// nil after reporting on stderr a list, resume or output file that cannot be opened. A list
    /// printed in another format than jsonl (a regular file: `BatchOptionGroup.format`) is read
    /// whole first, and its images run as arguments do.
    /// - Throws: `UsageError` for a folder argument without images.
    static func source<Output: TaskOutput>(
        images: [FileSystemPath], options: BatchOptionGroup, format: OutputFormat, output: Output.Type
    ) throws(UsageError) -> ImageSource? {
        guard let prepared = BatchOutputFile.prepare(options) else { return nil }
        do throws(TasksError) {
            let source = try ImageSource(
                images: images, filesFrom: options.filesFrom, nullSeparated: options.nullSeparated,
                readingWholeList: format != .jsonl, shard: options.shard,
                resume: options.resume.map { ResumeFile($0, for: output) })
            SkippedFolders.warn(source.skippedFolders)
            if let resume = options.resume { warnForeignLines(source.foreignResumeLines, in: resume) }
            return source
        } catch {
            prepared.discard()
            if error.condition == .emptyFolder, let folder = error.subject?.name {
                throw UsageError("no .jpg, .jpeg, .png or .webp file in the folder \(TableText.escaped(folder))")
            }
            StandardStreams.reportError(error)
            return nil
        }
    }

    /// Warns once when the `--resume` file has lines that are not records (`ResumeRecords`):
    /// it may not be this job's output, and the images of those lines, if any, run again.
    private static func warnForeignLines(_ lines: [Int], in resume: String) {
        guard let first = lines.first else { return }
        let count = lines.count == 1 ? "line \(first) is" : "\(lines.count) lines are (the first: line \(first))"
        StandardStreams.warn(
            "warning: \(TableText.escaped(resume)): \(count) not a JSON record with an \"image\"; ignored, so "
                + "any image they were for is processed again")
    }
}
