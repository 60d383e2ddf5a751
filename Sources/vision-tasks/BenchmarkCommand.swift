import Foundation
import VisionTasks

/// `vision-tasks benchmark`: times model creation, decoding and classification, and measures
/// memory across classifier create/destroy cycles. Figures, not pass/fail: compare them with
/// MediaPipe's on the same machine (`../shared/tools/peer_bench.py`).
enum BenchmarkCommand {
    static let help = """
    USAGE: vision-tasks benchmark --model MODEL [--runs N] [--cycles N] [--threads N] [--format table|json] IMAGE

    Prints medians (and 90th percentiles) in milliseconds of: creating the classifier (load,
    check and compile the model), decoding IMAGE, classifying the decoded image (preprocessing,
    inference, postprocessing), and decoding plus classifying; then the resident memory before
    and after N create/classify/destroy cycles of the classifier (a leak shows as growth).

    OPTIONS:
      --model PATH             The .tflite model (required).
      --runs N                 Timed repetitions of each step (default 50).
      --cycles N               Create/destroy cycles for the memory check (default 100).
      --threads N              CPU threads for inference, 1...64 (default \(BaseOptions.defaultThreadCount)).
      --format FORMAT          table (default) or json.
      -h, --help               Show this help.
    """

    /// The figures, in milliseconds and bytes.
    struct Report: Encodable {
        let model: String
        let image: String
        let threads: Int
        let runs: Int
        let createMilliseconds: Timing
        let decodeMilliseconds: Timing
        let classifyMilliseconds: Timing
        let decodeAndClassifyMilliseconds: Timing
        let cycles: Int
        let residentBytesBefore: Int
        let residentBytesAfter: Int
    }

    /// A median and a 90th percentile.
    struct Timing: Encodable {
        let median: Double
        let p90: Double
    }

    /// Runs the command; returns the exit status.
    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try ParsedArguments(arguments, valueOptions: ["model", "runs", "cycles", "threads", "format"],
                                         flags: ["help", "h"])
        if parsed.flags.contains("help") || parsed.flags.contains("h") {
            print(help)
            return 0
        }
        guard let model = parsed.value("model") else { throw UsageError("--model is required") }
        guard parsed.positionals.count == 1, let image = parsed.positionals.first else { throw UsageError("give exactly one image") }
        let runs = try parsed.int("runs", default: 50, in: 1...100_000)
        let cycles = try parsed.int("cycles", default: 100, in: 0...100_000)
        let threads = try parsed.int("threads", default: BaseOptions.defaultThreadCount, in: 1...64)
        let format = try OutputFormat(parsed)
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = model
        options.baseOptions.threadCount = threads
        do {
            let report = try measure(options, image: image, runs: runs, cycles: cycles)
            format == .table ? printTable(report) : print(OutcomePrinter.json(report))
            return 0
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 1
        }
    }

    private static func measure(_ options: ImageClassifierOptions, image path: String, runs: Int, cycles: Int) throws -> Report {
        let create = try time(runs: max(1, runs / 10)) { _ = try ImageClassifier(options: options) }
        let classifier = try ImageClassifier(options: options)
        let decoded = try MPImage(contentsOfFile: path)
        let decode = try time(runs: runs) { _ = try MPImage(contentsOfFile: path) }
        let classify = try time(runs: runs) { _ = try classifier.classify(image: decoded) }
        let both = try time(runs: runs) { _ = try classifier.classify(image: MPImage(contentsOfFile: path)) }
        let before = residentBytes()
        for _ in 0..<cycles { _ = try ImageClassifier(options: options).classify(image: decoded) }
        return Report(model: options.baseOptions.modelAssetPath, image: path, threads: options.baseOptions.threadCount,
                      runs: runs, createMilliseconds: create, decodeMilliseconds: decode, classifyMilliseconds: classify,
                      decodeAndClassifyMilliseconds: both, cycles: cycles, residentBytesBefore: before,
                      residentBytesAfter: residentBytes())
    }

    /// Runs `body` once to warm up, then `runs` times, timing each.
    private static func time(runs: Int, _ body: () throws -> Void) throws -> Timing {
        try body()
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        samples.sort()
        return Timing(median: samples[samples.count / 2], p90: samples[min(samples.count - 1, samples.count * 9 / 10)])
    }

    /// The process's resident memory, from /proc/self/statm.
    private static func residentBytes() -> Int {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    private static func printTable(_ report: Report) {
        func line(_ name: String, _ timing: Timing) {
            print(name.padding(toLength: 24, withPad: " ", startingAt: 0)
                + String(format: "median %8.3f ms   p90 %8.3f ms", timing.median, timing.p90))
        }
        print("\(report.model) on \(report.image), \(report.threads) thread(s), \(report.runs) runs")
        line("create classifier", report.createMilliseconds)
        line("decode image", report.decodeMilliseconds)
        line("classify (decoded)", report.classifyMilliseconds)
        line("decode + classify", report.decodeAndClassifyMilliseconds)
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        print("resident memory         \(mib(report.residentBytesBefore)) before, \(mib(report.residentBytesAfter)) after "
            + "\(report.cycles) create/classify/destroy cycles (growth \(mib(report.residentBytesAfter - report.residentBytesBefore)))")
    }
}
