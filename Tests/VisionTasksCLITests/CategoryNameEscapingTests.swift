import Foundation
import TestSupport
import Testing

/// Category names with control characters (from a labels file, which anyone can write): the
/// table shows them escaped, so they cannot move the cursor, color the terminal or split a row;
/// JSON has them as they are.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct CategoryNameEscapingTests {
    static let roses = "ro\u{1B}[31mses\tred"

    @Test func labelTextIsEscapedInTheTableOnly() async throws {
        var labels = AutoMLExportFolder.flowers
        labels[2] = Self.roses
        let export = try AutoMLExportFolder(labels: labels)

        let table = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, Fixture.burger])
        #expect(table.status == 0, "\(table)")
        #expect(
            table.stdoutLines == [
                Fixture.burger,
                "  index  text" + String(repeating: " ", count: 18) + "confidence",
                "      2  ro\\u{1B}[31mses\\tred     0.96484",
            ], "\(table)")

        let json = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, "--format", "json", Fixture.burger])
        #expect(json.status == 0, "\(json)")
        #expect(try json.singleImageLabels().first?.text == Self.roses, "\(json)")
    }
}
