import Foundation
import TestSupport
import Testing

/// An image's error line in table format starts with its path and does not repeat it; an
/// error whose subject is another file (the model) still names that file.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct TableErrorLineTests {
    @Test func imageErrorNamesThePathOnce() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "/nonexistent/photo.jpg"])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics == [
                "/nonexistent/photo.jpg: error: NOT_FOUND: The image file was not found (no such file or folder)."
            ],
            "\(run)")
    }

    @Test func modelErrorNamesTheModel() async throws {
        let run = try await VisionTasksTool.run(["classify", "--model", "/nonexistent/model.tflite", Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics == [
                "error: NOT_FOUND: Unable to open file at /nonexistent/model.tflite: the model file was not found "
                    + "(no such file or folder)."
            ],
            "\(run)")
    }
}

/// Results that cannot be written (a full disk: /dev/full) are an error with status 1, not the
/// quiet end of a closed pipe.
@Suite(
    .enabled(
        if: TestData.isAvailable && FileManager.default.fileExists(atPath: "/dev/full"),
        Comment(rawValue: TestData.missingReason)))
struct OutputWriteErrorTests {
    @Test func fullDiskIsReported() throws {
        let tool = try #require(VisionTasksTool.executable)
        let process = Process()
        process.executableURL = tool
        process.arguments = ["classify", "--model", Fixture.quantModel, Fixture.burger]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(stderr == "error: cannot write the results to standard output: No space left on device\n")
    }
}
