import Foundation
import TestSupport
import Testing

/// `vision-tasks classify` output in its three formats, run on the built executable.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ClassifyOutputTests {
    /// The issue's acceptance check. 0.97266 is MediaPipe's score, 0.97265625
    /// (expected/mediapipe_image_mode.json), at the table's five decimals.
    @Test func acceptanceCheckPrintsCheeseburgerFirst() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, Fixture.burger])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let lines = run.stdoutLines
        try #require(lines.count == 3 + 5, "a path line, a head line, a header and the default 5 rows:\n\(run)")
        #expect(lines[0] == Fixture.burger)
        #expect(lines[1] == "  head 0 (probability)")
        #expect(lines[2].split(separator: " ") == ["index", "category", "name", "score"])
        #expect(lines[3].split(separator: " ") == ["934", "cheeseburger", "0.97266"])
        let expected = String(
            format: "%.5f",
            try #require(
                try Fixture.mediaPipeCategories(model: Fixture.quantModelName, image: "burger.jpg").first
            ).score)
        #expect(lines[3].hasSuffix(" \(expected)"), "MediaPipe's score is \(expected)")
    }

    struct TableCase: Sendable, CustomTestStringConvertible {
        let id: String
        let options: [String]
        /// The lines after the image's path.
        let lines: [String]
        var testDescription: String { id }
    }

    /// The table layout: right-aligned index and score, names padded, the head name in
    /// parentheses when there is one, the display-name column only when a row has a display
    /// name. Scores and names are MediaPipe's (expected/*.json).
    static let tableCases: [TableCase] = [
        TableCase(
            id: "labels, no display names", options: ["--model", Fixture.quantModel],
            lines: [
                "  head 0 (probability)",
                "    index  category name    score",
                "      934  cheeseburger   0.97266",
            ]),
        TableCase(
            id: "Spanish display names", options: ["--model", Fixture.localizedModel, "--locale", "es"],
            lines: [
                "  head 0 (MobilenetV1/Predictions/Reshape_1)",
                "    index  category name  display name             score",
                "      934  /m/00934       hamburguesa con queso  0.97266",
            ]),
        TableCase(
            id: "no labels, no head name", options: ["--model", Fixture.unlabeledModel],
            lines: [
                "  head 0",
                "    index  category name    score",
                "      934                 0.97266",
            ]),
        TableCase(
            id: "nothing above the threshold", options: ["--model", Fixture.quantModel, "--score-threshold", "0.99"],
            lines: [
                "  head 0 (probability)",
                "    index  category name  score",
                "    (no category at or above the score threshold)",
            ]),
    ]

    @Test(arguments: tableCases)
    func tableSnapshot(_ table: TableCase) async throws {
        let run = try await VisionTasksTool.run(["classify"] + table.options + ["--max-results", "1", Fixture.burger])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines == [Fixture.burger] + table.lines, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
    }

    /// `--format json`: one array; each object has exactly the documented keys, names absent
    /// from the model are null, scores are MediaPipe's.
    @Test func jsonHasTheDocumentedShapeAndValues() async throws {
        let run = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--format", "json", "--max-results", "3", Fixture.burger,
            Fixture.sparrowPNG,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        // JSONSerialization refuses trailing text, so stdout is one JSON value.
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let outcomes = try #require(parsed as? [[String: Any]], "not an array of objects:\n\(run)")
        #expect(outcomes.map { $0["image"] as? String } == [Fixture.burger, Fixture.sparrowPNG])

        for outcome in outcomes {
            #expect(Set(outcome.keys) == ["image", "classifications"])
            let heads = try #require(outcome["classifications"] as? [[String: Any]])
            try #require(heads.count == 1)
            #expect(Set(heads[0].keys) == ["headIndex", "headName", "categories"])
            #expect(heads[0]["headIndex"] as? Int == 0)
            #expect(heads[0]["headName"] as? String == "probability")
            let categories = try #require(heads[0]["categories"] as? [[String: Any]])
            #expect(categories.count == 3, "--max-results 3")
            for category in categories {
                #expect(Set(category.keys) == ["index", "score", "categoryName", "displayName"])
                #expect(category["displayName"] is NSNull, "no display names in this model: null, not absent")
            }
        }
        let burger = try #require((outcomes[0]["classifications"] as? [[String: Any]])?.first?["categories"] as? [[String: Any]])
        #expect(burger[0]["index"] as? Int == 934)
        #expect(burger[0]["categoryName"] as? String == "cheeseburger")
        let score = try #require(burger[0]["score"] as? Double)
        #expect(abs(score - 0.97265625) <= 1.0 / 256, "MediaPipe: 0.97265625")
    }

    /// `--max-results`: how many categories each head lists; -1 lists all 1001 labels.
    @Test(arguments: [(1, 1), (3, 3), (5, 5), (-1, 1001)])
    func maxResultsLimitsTheCategories(maxResults: Int, count: Int) async throws {
        let run = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--format", "json", "--max-results", String(maxResults), Fixture.burger,
        ])
        #expect(run.status == 0, "\(run)")
        let outcomes = try run.jsonOutcomes()
        try #require(outcomes.count == 1)
        #expect(outcomes[0].categories.count == count)
        #expect(outcomes[0].categories.first?.index == 934)
        let scores = outcomes[0].categories.map(\.score)
        #expect(scores == scores.sorted(by: >), "best first")
    }

    /// `--format jsonl`: one object per line and image, in argument order (not sorted).
    @Test func jsonlPrintsOneLinePerImageInArgumentOrder() async throws {
        let images = [Fixture.sparrowPNG, Fixture.burger, Fixture.burgerPNG, Fixture.burgerCrop]
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "jsonl"] + images)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines.count == images.count, "\(run)")
        for line in run.stdoutLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not one object: \(line)")
        }
        let outcomes = try run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == images)
        for outcome in outcomes {
            let name = URL(fileURLWithPath: outcome.image).lastPathComponent
            #expect(outcome.error == nil, "\(name)")
            #expect(outcome.categories.count == 5, "\(name)")
            #expect(
                outcome.categories.first?.index == (try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: name)),
                "\(name)")
        }
    }

    /// json and jsonl carry the same outcomes, only framed differently.
    @Test func jsonAndJsonlAgree() async throws {
        let arguments = ["classify", "--model", Fixture.quantModel, "--max-results", "4", Fixture.burger, Fixture.sparrowPNG]
        let json = try await VisionTasksTool.run(arguments + ["--format", "json"])
        let jsonl = try await VisionTasksTool.run(arguments + ["--format=jsonl"])
        #expect(json.status == 0 && jsonl.status == 0, "\(json)\n\(jsonl)")
        let outcomes = try json.jsonOutcomes()
        #expect(outcomes.count == 2)
        #expect(outcomes == (try jsonl.jsonlOutcomes()))
    }

    /// The same command prints the same bytes, keys sorted: output that can be diffed. (Without
    /// `.sortedKeys`, JSONEncoder's key order changes with each process's hash seed.)
    @Test func jsonOutputIsTheSameOnEveryRun() async throws {
        let arguments = ["classify", "--model", Fixture.quantModel, "--format", "json", "--max-results", "1", Fixture.burger]
        let snapshot =
            #"[{"classifications":[{"categories":[{"categoryName":"cheeseburger","displayName":null,"index":934,"#
            + #""score":0.97265625}],"headIndex":0,"headName":"probability"}],"image":"\#(Fixture.burger)"}]"#
        for _ in 0..<3 {
            let run = try await VisionTasksTool.run(arguments)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdoutLines == [snapshot], "\(run)")
        }
    }
}
