import Foundation
import TestSupport
import Testing

/// The table leaves out the categories whose score shows as 0.00000 and counts them in one
/// line; json keeps every category. The rows are MediaPipe's answer for the quantized MobileNet
/// on burger.jpg's decoded pixels (`LabelReference`): six categories above zero, then zeros.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct TableZeroScoreTests {
    /// The categories above zero as the tables order them (score, then index), with their
    /// scores at five decimals.
    static let nonzero: [(index: Int, name: String, score: String)] = [
        (934, "cheeseburger", "0.97266"), (119, "Dungeness crab", "0.00391"), (932, "bagel", "0.00391"),
        (935, "hotdog", "0.00391"), (948, "mushroom", "0.00391"), (993, "agaric", "0.00391"),
    ]

    /// The rows above are MediaPipe's, and its top 10 ends with zeros, so every category after
    /// those six scores zero.
    @Test func rowsAreMediaPipes() throws {
        let reference = try LabelReference.categories(model: Fixture.quantModelName, image: "burger.jpg")
        #expect(reference.count == 10)
        let shown = reference.filter { String(format: "%.5f", $0.score) != "0.00000" }
        #expect(shown.count == Self.nonzero.count)
        for row in Self.nonzero {
            let category = shown.first { $0.index == row.index }
            #expect(category?.categoryName == row.name, "\(row)")
            #expect(category.map { String(format: "%.5f", $0.score) } == row.score, "\(row)")
        }
    }

    @Test func labelTableCountsTheZerosJsonKeepsThem() async throws {
        let arguments = ["label", "--model", Fixture.quantModel, Fixture.burger]
        let table = try await VisionTasksTool.run(arguments)
        #expect(table.status == 0 && table.diagnostics.isEmpty, "\(table)")
        #expect(
            table.stdoutLines == [
                Fixture.burger,
                "  index  text            confidence",
                "    934  cheeseburger       0.97266",
                "    119  Dungeness crab     0.00391",
                "    932  bagel              0.00391",
                "    935  hotdog             0.00391",
                "    948  mushroom           0.00391",
                "    993  agaric             0.00391",
                "  (4 more with confidence 0.00000)",
            ], "\(table)")

        let json = try await VisionTasksTool.run(arguments + ["--format", "json"])
        let labels = try json.singleImageLabels()
        #expect(labels.count == 10, "--max-results 10 by default: \(json)")
        #expect(labels.filter { $0.confidence == 0 }.count == 4, "\(json)")
    }

    /// With `--max-results -1` the line counts every other category of the 1001.
    @Test(arguments: [("10", 4), ("-1", 1001 - nonzero.count)])
    func classifyTableCountsTheZerosJsonKeepsThem(maxResults: String, omitted: Int) async throws {
        let arguments = ["classify", "--model", Fixture.quantModel, "--max-results", maxResults, Fixture.burger]
        let table = try await VisionTasksTool.run(arguments)
        #expect(table.status == 0 && table.diagnostics.isEmpty, "\(table)")
        #expect(
            table.stdoutLines == [
                Fixture.burger,
                "  head 0 (probability)",
                "    index  category name     score",
                "      934  cheeseburger    0.97266",
                "      119  Dungeness crab  0.00391",
                "      932  bagel           0.00391",
                "      935  hotdog          0.00391",
                "      948  mushroom        0.00391",
                "      993  agaric          0.00391",
                "    (\(omitted) more with score 0.00000)",
            ], "\(table)")

        let json = try await VisionTasksTool.run(arguments + ["--format", "json"])
        let categories = try #require(try json.jsonOutcomes().first?.categories, "\(json)")
        #expect(categories.count == Self.nonzero.count + omitted, "\(json)")
    }
}
