import Foundation
import TestSupport
import Testing

/// Mistakes in how the tool is called: exit status 2, nothing on stdout, a message on stderr,
/// and no model is loaded (they are found before).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct UsageErrorTests {
    struct UsageCase: Sendable, CustomTestStringConvertible {
        let id: String
        /// The arguments; `MODEL` and `IMAGE` stand for the quantized model and burger.jpg.
        let arguments: [String]
        /// Text stderr must contain.
        let message: String
        var testDescription: String { id }
    }

    static let hint = "Run `vision-tasks --help` for usage."

    /// The hint after a usage error: the command's own help when a command was named.
    static func hint(for arguments: [String]) -> String {
        guard let command = arguments.first, ["classify", "label", "classify-video", "live", "benchmark"].contains(command) else {
            return hint
        }
        return "Run `vision-tasks \(command) --help` for usage."
    }

    static let cases: [UsageCase] = [
        UsageCase(id: "no command", arguments: [], message: "USAGE: vision-tasks COMMAND"),
        UsageCase(id: "unknown command", arguments: ["frobnicate"], message: "error: unknown command 'frobnicate'"),
        UsageCase(
            id: "--allow with --deny",
            arguments: ["classify", "--model", "MODEL", "--allow", "hotdog", "--deny", "bagel", "IMAGE"],
            message: "error: give --allow or --deny, not both"),
        UsageCase(
            id: "benchmark --format jsonl", arguments: ["benchmark", "--model", "MODEL", "--format", "jsonl", "IMAGE"],
            message: "error: --format must be table or json, got 'jsonl'"),
        UsageCase(
            id: "unknown option", arguments: ["classify", "--model", "MODEL", "--bogus", "IMAGE"],
            message: "error: unknown option --bogus"),
        UsageCase(
            id: "option without its value", arguments: ["classify", "IMAGE", "--model"],
            message: "error: option --model needs a value"),
        UsageCase(id: "missing --model", arguments: ["classify", "IMAGE"], message: "error: --model is required"),
        UsageCase(id: "no images", arguments: ["classify", "--model", "MODEL"], message: "error: no image given"),
        UsageCase(
            id: "bad --format", arguments: ["classify", "--model", "MODEL", "--format", "xml", "IMAGE"],
            message: "error: --format must be one of table, json, jsonl, csv, got 'xml'"),
        UsageCase(
            id: "--roi with three numbers", arguments: ["classify", "--model", "MODEL", "--roi", "0.1,0.2,0.3", "IMAGE"],
            message: "error: --roi expects four numbers X,Y,W,H, got '0.1,0.2,0.3'"),
        UsageCase(
            id: "--roi not numbers", arguments: ["classify", "--model", "MODEL", "--roi", "a,b,c,d", "IMAGE"],
            message: "error: --roi expects four numbers X,Y,W,H, got 'a,b,c,d'"),
        UsageCase(
            id: "--rotation 45", arguments: ["classify", "--model", "MODEL", "--rotation", "45", "IMAGE"],
            message: "error: --rotation: Expected rotation to be a multiple of 90°, got 45."),
        UsageCase(
            id: "--rotation not a number", arguments: ["classify", "--model", "MODEL", "--rotation", "half", "IMAGE"],
            message: "error: --rotation expects an integer, got 'half'"),
        UsageCase(
            id: "--max-results not a number", arguments: ["classify", "--model", "MODEL", "--max-results", "x", "IMAGE"],
            message: "error: --max-results expects an integer, got 'x'"),
        UsageCase(
            id: "--threads not a number", arguments: ["classify", "--model", "MODEL", "--threads", "two", "IMAGE"],
            message: "error: --threads expects an integer, got 'two'"),
        UsageCase(
            id: "--max-results 0", arguments: ["classify", "--model", "MODEL", "--max-results", "0", "IMAGE"],
            message: "error: --max-results: Invalid `max_results` option: value must be != 0."),
        UsageCase(
            id: "--threads 0", arguments: ["classify", "--model", "MODEL", "--threads", "0", "IMAGE"],
            message: "error: --threads must be between 1 and 64, got 0"),
        UsageCase(
            id: "--threads 100000", arguments: ["classify", "--model", "MODEL", "--threads", "100000", "IMAGE"],
            message: "error: --threads must be between 1 and 64, got 100000"),
        UsageCase(
            id: "--roi empty", arguments: ["classify", "--model", "MODEL", "--roi", "0,0,0,0", "IMAGE"],
            message: "error: --roi must lie inside the image"),
        UsageCase(
            id: "--score-threshold not a number",
            arguments: ["classify", "--model", "MODEL", "--score-threshold", "nan", "IMAGE"],
            message: "error: --score-threshold expects a number, got 'nan'"),
    ]

    @Test(arguments: cases)
    func usageErrorExitsWith2(_ usage: UsageCase) async throws {
        let arguments = usage.arguments.map { $0 == "MODEL" ? Fixture.quantModel : $0 == "IMAGE" ? Fixture.burger : $0 }
        let run = try await VisionTasksTool.run(VisionTasksTool.verbose(arguments))
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.contains(usage.message), "\(run)")
        if usage.message.hasPrefix("error: ") {
            #expect(run.diagnostics.last == Self.hint(for: usage.arguments), "\(run)")
        }
        #expect(!run.compiledModel, "usage is checked before the model is loaded:\n\(run)")
    }
}
