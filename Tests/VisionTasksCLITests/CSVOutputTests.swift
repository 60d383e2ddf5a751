import Foundation
import TestSupport
import Testing

/// `--format csv` of classify and label: read back with Python's csv module (as spreadsheets
/// and pandas would read it), it holds exactly what `--format json` prints.
@Suite(
    .enabled(
        if: TestData.isAvailable && ExternalProgram.find(["python3"]) != nil,
        Comment(rawValue: TestData.isAvailable ? "python3 is not installed" : TestData.missingReason)))
struct CSVOutputTests {
    static let classifyHeader = [
        "image", "headIndex", "headName", "rank", "index", "categoryName", "displayName", "score", "error",
    ]
    static let labelHeader = ["image", "rank", "index", "text", "confidence", "error"]

    /// The records of `csv`, as Python's csv module reads them (header included).
    static func parse(_ csv: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String]] {
        let python = try #require(ExternalProgram.find(["python3"]), sourceLocation: sourceLocation)
        let script =
            "import csv, io, json, sys\n"
            + "print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.buffer.read().decode('utf-8'), newline='')))))"
        let run = try await ExternalProgram.run(python, ["-c", script], input: Data(csv.utf8), sourceLocation: sourceLocation)
        try #require(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode([[String]].self, from: run.stdout)
    }

    /// classify's records for `outcomes`, as the documentation describes them.
    static func expectedRecords(_ outcomes: [ImageOutcome]) -> [[String]] {
        outcomes.flatMap { outcome -> [[String]] in
            if let error = outcome.error {
                return [[outcome.image, "", "", "", "", "", "", "", "\(error.code): \(error.message)"]]
            }
            return (outcome.classifications ?? []).flatMap { head -> [[String]] in
                let prefix = [outcome.image, String(head.headIndex), head.headName ?? ""]
                guard !head.categories.isEmpty else { return [prefix + ["", "", "", "", "", ""]] }
                return head.categories.enumerated().map { rank, category in
                    prefix + [
                        String(rank + 1), String(category.index), category.categoryName ?? "", category.displayName ?? "",
                        String(category.score), "",
                    ]
                }
            }
        }
    }

    /// Every shared photo, all categories above 0.01: the CSV equals the JSON, scores included
    /// (compared as numbers, as a reader parses them).
    @Test func classifyCSVEqualsJSON() async throws {
        let options = [
            "--model", Fixture.quantModel, "--score-threshold", "0.01", "--max-results", "-1", TestData.url("images").path,
        ]
        let json = try await VisionTasksTool.run(["classify", "--format", "json"] + options)
        let csv = try await VisionTasksTool.run(["classify", "--format", "csv"] + options)
        #expect(json.status == 0 && csv.status == 0, "\(csv)")
        #expect(csv.diagnostics.isEmpty, "\(csv)")
        let outcomes = try json.jsonOutcomes()
        try #require(outcomes.count == 12)
        let records = try await Self.parse(csv.stdout)
        try #require(records.first == Self.classifyHeader, "\(csv)")
        let body = Array(records.dropFirst())
        let expected = Self.expectedRecords(outcomes)
        #expect(body.count == expected.count && body.count > 12)
        for (record, wanted) in zip(body, expected) {
            #expect(record.count == Self.classifyHeader.count)
            #expect(record.prefix(7) == wanted.prefix(7), "\(record)")
            #expect(Float(record[7]) == Float(wanted[7]), "score of \(record)")
            #expect(record[8] == "", "\(record)")
        }
        #expect(Set(body.map { $0[0] }) == Set(outcomes.map(\.image)), "every image has records")
    }

    /// Names with a comma, quotes and a line break are quoted (RFC 4180) and read back exactly;
    /// a file that fails is a record with only the image and the error, and is on stderr too.
    @Test func quotingAndErrors() async throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let awkward = directory.appendingPathComponent("a,\"b\"\nc.jpg").path
        try FileManager.default.copyItem(atPath: Fixture.burger, toPath: awkward)
        let missing = directory.appendingPathComponent("missing, \"really\".png").path

        let arguments = ["--model", Fixture.quantModel, "--max-results", "2", awkward, missing]
        let csv = try await VisionTasksTool.run(["classify", "--format", "csv"] + arguments)
        let json = try await VisionTasksTool.run(["classify", "--format", "json"] + arguments)
        #expect(csv.status == 1, "\(csv)")
        let records = try await Self.parse(csv.stdout)
        let outcomes = try json.jsonOutcomes()
        #expect(Array(records.dropFirst()) == Self.expectedRecords(outcomes), "\(csv)")
        #expect(records.dropFirst().map { $0[0] } == [awkward, awkward, missing])
        #expect(records.last?[8].hasPrefix("NOT_FOUND: ") == true, "\(csv)")
        #expect(csv.diagnostics.count == 1 && csv.diagnostics[0].contains("error: NOT_FOUND"), "\(csv)")
        #expect(
            csv.stdout.contains("\n\"\(directory.path)/a,\"\"b\"\"\nc.jpg\",0,"),
            "the quoted field as RFC 4180 writes it:\n\(csv)")
    }

    /// label: labels with commas and quotes, read back exactly as JSON has them.
    @Test func labelCSVEqualsJSON() async throws {
        let labels = ["daisy, white", "\"dandelion\"", "roses; \"red\", pink", "sunflowers", "tulips"]
        let export = try AutoMLExportFolder(labels: labels)
        let arguments = ["--manifest", export.manifestPath, "--confidence", "0", Fixture.burger, Fixture.sparrowPNG]
        let csv = try await VisionTasksTool.run(["label", "--format", "csv"] + arguments)
        let json = try await VisionTasksTool.run(["label", "--format", "json"] + arguments)
        #expect(csv.status == 0 && json.status == 0, "\(csv)")
        let records = try await Self.parse(csv.stdout)
        try #require(records.first == Self.labelHeader, "\(csv)")
        let expected = try json.jsonOutcomes().flatMap { outcome in
            (outcome.labels ?? []).enumerated().map { rank, label in
                [outcome.image, String(rank + 1), String(label.index), label.text, String(label.confidence), ""]
            }
        }
        #expect(expected.count == 10)
        #expect(Array(records.dropFirst()) == expected, "\(csv)")
    }
}
