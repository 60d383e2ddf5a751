import Foundation
import Testing
import TestSupport

/// An image's error line in table format starts with its path and does not repeat it; an
/// error whose subject is another file (the model) still names that file.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct TableErrorLineTests {
    @Test func imageErrorNamesThePathOnce() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "/nonexistent/photo.jpg"])
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics == ["/nonexistent/photo.jpg: error: NOT_FOUND: The image file was not found (no such file or folder)."],
                "\(run)")
    }

    @Test func modelErrorNamesTheModel() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", "/nonexistent/model.tflite", Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics == ["error: NOT_FOUND: /nonexistent/model.tflite: The model file was not found (no such file or folder)."],
                "\(run)")
    }
}
