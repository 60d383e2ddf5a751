import Foundation
import ImageTasks
import Imaging
import LiteRT
import TaskRuntime
import TasksCommon
import VisionTasks

/// `vision-tasks benchmark`: times model creation, decoding and classification, and measures
/// memory across classifier create/destroy cycles. Figures, not pass/fail: compare them with
/// MediaPipe's on the same machine (`../shared/tools/peer_bench.py`).
struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "benchmark",
        abstract: "Time model creation, decoding and classification; check memory across cycles.",
        usage:
            "vision-tasks benchmark --model MODEL [--runs N] [--cycles N] [--threads N] [--clock wall|cpu] [--format table|json] IMAGE",
        discussion: """
            Prints medians (and 90th percentiles) in milliseconds of: creating the classifier (load,
            check and compile the model), decoding IMAGE, classifying the decoded image (preprocessing,
            inference, postprocessing), LiteRT's inference alone (the model run on the same input), and
            decoding plus classifying, each timed --runs times after one untimed run, with the number of
            samples next to each figure; the overhead (classify minus inference, medians: what the
            pipeline adds to LiteRT; with few runs noise can make it slightly negative); then the
            resident memory before and after N create/classify/destroy cycles of the classifier (a
            leak shows as growth).
            With --clock cpu the figures are the CPU time of the process instead of elapsed time.
            """,
        epilogue: """
            EXIT STATUS: 0 when every step ran, 1 when the model or image could not be used, 2 for a
            usage error.
            """)

    static let runs = Option<Int>(
        name: "runs", valueName: "N", help: "Timed repetitions of each step.", default: 50,
        defaultDescription: "50", transform: ValueParser.integer("runs", in: ValueRanges.runs))
    static let cycles = Option<Int>(
        name: "cycles", valueName: "N", help: "Create/destroy cycles for the memory check.",
        default: 100, defaultDescription: "100",
        transform: ValueParser.integer("cycles", in: ValueRanges.cycles))
    static let format = OutputFormat.option(allowing: [.table, .json], help: "table or json (one object).")

    static let optionTable = [
        ClassifierOptionGroup.model.definition, runs.definition, cycles.definition,
        ClassifierOptionGroup.threads.definition, MeasurementClock.option.definition, format.definition,
        StandardOptions.verbose.definition,
    ]

    /// The figures, in milliseconds and bytes.
    struct Report: Codable {
        let model: String
        let image: String
        let threads: Int
        let runs: Int
        let clock: MeasurementClock
        let createMilliseconds: Timing
        let decodeMilliseconds: Timing
        let classifyMilliseconds: Timing
        /// LiteRT's run of the model alone, on the input a classification prepared.
        let inferenceMilliseconds: Timing
        /// The classify median minus the inference median: preprocessing and postprocessing
        /// (a difference of two medians: with few runs, noise can make it slightly negative), to
        /// the nanosecond.
        let classifyOverheadMilliseconds: Double
        let decodeAndClassifyMilliseconds: Timing
        let cycles: Int
        let residentBytesBefore: Int
        let residentBytesAfter: Int
    }

    /// A median and a 90th percentile, and how many timed runs they come from.
    struct Timing: Codable {
        let median: Double
        let p90: Double
        let samples: Int
    }

    let model: String
    let image: FileSystemPath
    let runs: Int
    let cycles: Int
    let threads: Int
    let clock: MeasurementClock
    let format: OutputFormat
    let verbose: Bool

    init(_ parsed: ParsedArguments) throws(UsageError) {
        model = try parsed.required(ClassifierOptionGroup.model)
        guard parsed.positionals.count == 1, let image = parsed.positionals.first else {
            throw UsageError("give exactly one image")
        }
        self.image = image.path
        runs = try parsed.value(Self.runs)
        cycles = try parsed.value(Self.cycles)
        threads = try parsed.value(ClassifierOptionGroup.threads)
        clock = try parsed.value(MeasurementClock.option)
        format = try parsed.value(Self.format)
        verbose = parsed.isSet(StandardOptions.verbose)
    }

    func run() -> Int32 {
        let report: Report
        do {
            report = try measure()
        } catch {
            StandardStreams.reportError(TasksError.wrapping(error))
            return 1
        }
        guard format == .table else {
            do {
                StandardStreams.emit(try JSONText.encode(report))
                return 0
            } catch {
                StandardStreams.reportError(error)
                return 1
            }
        }
        printTable(report)
        return 0
    }

    private func measure() throws -> Report {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = model
        options.baseOptions.threadCount = threads
        func decode() throws -> MPImage {
            let decoded = try ImageDecoder.decode(file: image)
            return MPImage(pixels: decoded.pixels, orientation: decoded.exifOrientation)
        }
        if verbose { LiteRTLog.isShown = true }
        let create = try Self.time(runs: runs, clock: clock) { _ = try ImageClassifier(options: options) }
        let classifier = try ImageClassifier(options: options)
        let decoded = try decode()
        let decodeTiming = try Self.time(runs: runs, clock: clock) { _ = try decode() }
        let classify = try Self.time(runs: runs, clock: clock) { _ = try classifier.classify(image: decoded) }
        let inference = try timeInference(decoded)
        let both = try Self.time(runs: runs, clock: clock) { _ = try classifier.classify(image: decode()) }
        let before = try Self.residentBytes()
        for _ in 0..<cycles { _ = try ImageClassifier(options: options).classify(image: decoded) }
        return Report(
            model: model, image: image.description, threads: threads, runs: runs, clock: clock, createMilliseconds: create,
            decodeMilliseconds: decodeTiming, classifyMilliseconds: classify, inferenceMilliseconds: inference,
            classifyOverheadMilliseconds: ((classify.median - inference.median) * 1e6).rounded() / 1e6,
            decodeAndClassifyMilliseconds: both,
            cycles: cycles, residentBytesBefore: before, residentBytesAfter: try Self.residentBytes())
    }

    /// Times LiteRT's run alone: an engine like the classifier's (same model and thread count)
    /// classifies `image` once to fill its input, then only runs the model.
    private func timeInference(_ image: MPImage) throws -> Timing {
        let engine = try ClassifierEngine(
            ClassifierConfiguration(asset: try ModelAsset(path: model, buffer: nil), threadCount: threads))
        _ = try engine.classify(image.pixels, orientation: image.orientation, regionOfInterest: .wholeImage)
        return try Self.time(runs: runs, clock: clock) { try engine.runModelOnly() }
    }

    /// Runs `body` once to warm up, then `runs` times, timing each.
    private static func time(runs: Int, clock: MeasurementClock, _ body: () throws -> Void) throws -> Timing {
        try body()
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = clock.now()
            try body()
            let elapsed = clock.now() - start
            samples.append(elapsed / .milliseconds(1))
        }
        samples.sort()
        return Timing(
            median: samples[samples.count / 2], p90: samples[min(samples.count - 1, samples.count * 9 / 10)],
            samples: samples.count)
    }

    /// The process's resident memory, from /proc/self/statm (its second field, in pages).
    /// - Throws: `TasksError` internal when the file cannot be read or parsed.
    private static func residentBytes() throws(TasksError) -> Int {
        let text: String
        do {
            text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        } catch {
            throw .internal("Could not read the resident memory: \(error).", subject: .file("/proc/self/statm"))
        }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count > 1, let pages = Int(fields[1]) else {
            throw .internal("Unexpected contents: '\(text)'.", subject: .file("/proc/self/statm"))
        }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private func printTable(_ report: Report) {
        func line(_ name: String, _ timing: Timing) {
            StandardStreams.emit(
                name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(format: "median %8.3f ms   p90 %8.3f ms   (%d samples)", timing.median, timing.p90, timing.samples))
        }
        StandardStreams.emit(
            "\(TableText.escaped(report.model)) on \(TableText.escaped(report.image)), "
                + "\(report.threads) thread(s), \(report.runs) runs" + (report.clock == .cpu ? ", CPU time" : ""))
        line("create classifier", report.createMilliseconds)
        line("decode image", report.decodeMilliseconds)
        line("classify (decoded)", report.classifyMilliseconds)
        line("  inference (LiteRT)", report.inferenceMilliseconds)
        StandardStreams.emit(
            "  overhead".padding(toLength: 24, withPad: " ", startingAt: 0)
                + String(format: "median %8.3f ms   (classify minus inference)", report.classifyOverheadMilliseconds))
        line("decode + classify", report.decodeAndClassifyMilliseconds)
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        let growth = mib(report.residentBytesAfter - report.residentBytesBefore)
        StandardStreams.emit(
            "resident memory         \(mib(report.residentBytesBefore)) before, \(mib(report.residentBytesAfter)) "
                + "after \(report.cycles) create/classify/destroy cycles (growth \(growth))")
    }
}
