import FileSystem
import Foundation
import Glibc
import ImageTasks
import TasksCommon

/// How classify and label go through many images: workers (`--jobs`), a list of paths read as
/// it arrives (`--files-from`, `-0`), a deterministic share of the images (`--shard`), skipping
/// the images an earlier run's output already has (`--resume`), appending to a jsonl file
/// (`--output`), and the progress line.
struct BatchOptionGroup: ParsableArguments {
    /// The number of cores, the default number of workers.
    static let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    static let jobs = Option<Int>(
        name: "jobs", valueName: "N",
        help: "Images worked on at once, 1...256: each worker decodes and classifies one image with a model of its "
            + "own; results are still printed in input order, each as soon as its turn comes. N workers run N times "
            + "the inference threads each has, so with several workers the thread count defaults to 1; to make one "
            + "image fast instead, use one worker and more threads.",
        default: cores, defaultDescription: "the number of cores, \(cores)",
        transform: ValueParser.integer("jobs", in: 1...256))
    /// `--jobs` of the commands that run a model over a whole folder before printing anything
    /// (train, evaluate).
    static let folderJobs = Option<Int>(
        name: "jobs", valueName: "N",
        help: "Photos worked on at once, 1...256, each by a worker with a model of its own (at most one per photo). "
            + "With several workers each runs one inference thread unless --threads says otherwise.",
        default: cores, defaultDescription: "the number of cores, \(cores)",
        transform: ValueParser.integer("jobs", in: 1...256))
    static let noProgress = Flag(
        name: "no-progress",
        help: "Never show the progress line (images done, rate, time left), which is shown on "
            + "stderr only when it is a terminal.")
    static let filesFrom = Option<String?>(
        name: "files-from", valueName: "FILE",
        help: "Read image paths from FILE (- for standard input), one per line, and take each as soon as its line "
            + "arrives, printing its jsonl line at once: the worker contract of Spark's RDD.pipe, xargs and GNU parallel. "
            + "A failed image is an error line; the exit status stays 0 (see EXIT STATUS).")
    static let nullSeparated = Flag(
        name: "null", shortName: "0",
        help: "With --files-from: paths end with a NUL byte instead of a newline (find -print0).")
    static let shard = Option<Shard?>(
        name: "shard", valueName: "I/N",
        help: "Take only the images whose path hashes to bucket I of N (0 <= I < N; FNV-1a of the path's bytes): the "
            + "workers 0/N ... N-1/N of an indexed job share the images, disjoint and complete.",
        default: nil
    ) { text throws(UsageError) in
        do throws(TasksError) { return try Shard(text) } catch { throw UsageError(error.reason) }
    }
    static let resume = Option<String?>(
        name: "resume", valueName: "OUT.jsonl",
        help: "Skip the images that OUT.jsonl (an earlier run's jsonl output; missing: nothing to skip) has a result "
            + "for; images it has an error line for are tried again.")
    static let output = Option<String?>(
        name: "output", valueName: "FILE",
        help: "Append the jsonl records to FILE (created when missing) instead of printing them. A partial last line, "
            + "left by a run that was killed while writing, is removed first, so that every line of FILE parses: "
            + "resume a job into one file with --resume FILE --output FILE.")

    static let optionTable = [
        jobs.definition, filesFrom.definition, nullSeparated.definition, shard.definition,
        resume.definition, output.definition, noProgress.definition,
    ]

    let jobs: Int
    let progress: Bool
    /// The list to read paths from ("-": standard input), or nil for the image arguments.
    let filesFrom: String?
    let nullSeparated: Bool
    let shard: Shard?
    let resume: String?
    /// `--output`: the jsonl file the records are appended to, or nil for stdout.
    let output: String?

    init(_ parsed: ParsedArguments) throws(UsageError) {
        jobs = try parsed.value(Self.jobs)
        progress = !parsed.isSet(Self.noProgress)
        filesFrom = try parsed.value(Self.filesFrom)
        nullSeparated = parsed.isSet(Self.nullSeparated)
        shard = try parsed.value(Self.shard)
        resume = try parsed.value(Self.resume)
        output = try parsed.value(Self.output)
        guard filesFrom != nil || !nullSeparated else { throw UsageError("-0 (--null) needs --files-from") }
    }

    /// Checks the images and format against `--files-from` and `--output`: images come from one
    /// place, a list is answered line by line, and a file is appended jsonl records. Returns the
    /// format to print: jsonl for a list or an output file when none was given.
    func format(_ format: OutputFormat, given: Bool, imageArguments: Int) throws(UsageError) -> OutputFormat {
        if output != nil, given, format != .jsonl {
            throw UsageError("--output appends jsonl records, one line per image; --format \(format.rawValue) cannot be appended")
        }
        guard filesFrom != nil else {
            guard imageArguments > 0 else { throw UsageError("no image given") }
            return output == nil ? format : .jsonl
        }
        guard imageArguments == 0 else { throw UsageError("give images as arguments or with --files-from, not both") }
        guard !given || format == .jsonl || listIsRegularFile else {
            throw UsageError(
                "--files-from prints jsonl, one line per image; --format \(format.rawValue) cannot follow a list as it arrives "
                    + "(standard input or a pipe): give the list as a file")
        }
        return given ? format : .jsonl
    }

    /// Whether `--files-from` names a regular file, whose end is known: it can be read whole
    /// before the images run, as arguments are, for the formats printed at the end (npy, json).
    private var listIsRegularFile: Bool {
        guard let filesFrom, filesFrom != "-" else { return false }
        return FileStatus.optional(of: filesFrom)?.type == .regular
    }
}
