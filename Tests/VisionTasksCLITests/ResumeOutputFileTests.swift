import Foundation
import TestSupport
import Testing

/// A jsonl output whose last line a killed run cut short: `--resume` warns, and `--output`
/// removes the fragment before appending, so that every line of the file parses.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ResumeOutputFileTests {
    static let classify = ["classify", "--model", Fixture.quantModel, "--max-results", "1"]
    static let images = [Fixture.burger, Fixture.image("cat.jpg"), Fixture.image("dogs.jpg")]

    /// out.jsonl as a run killed while writing cat.jpg's record leaves it; the fragment's length.
    func tornOutput(in folder: URL) async throws -> (URL, Int) {
        let first = try await VisionTasksTool.run(Self.classify + ["--format", "jsonl"] + Self.images.prefix(2))
        try #require(first.status == 0 && first.stdoutLines.count == 2, "\(first)")
        let fragment = String(first.stdoutLines[1].prefix(40))
        let output = folder.appendingPathComponent("out.jsonl")
        try Data((first.stdoutLines[0] + "\n" + fragment).utf8).write(to: output)
        return (output, fragment.utf8.count)
    }

    /// The `image` of every line, failing the test on a line that does not parse.
    func images(in file: URL) throws -> [String] {
        try String(decoding: Data(contentsOf: file), as: UTF8.self).split(separator: "\n").map { line in
            let object = try #require(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            return try #require(object["image"] as? String)
        }
    }

    @Test func outputRemovesThePartialLineBeforeAppending() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, fragment) = try await tornOutput(in: folder)
        let run = try await VisionTasksTool.run(
            Self.classify + ["--resume", output.path, "--output", output.path] + Self.images)
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run)")
        #expect(
            run.diagnostics == [
                "warning: removed the partial last line of \(output.path) (\(fragment) bytes, left by an interrupted run); "
                    + "its image is processed again if it is given"
            ], "\(run)")
        #expect(try images(in: output) == Self.images, "each image once, every line whole")
    }

    @Test func resumeWarnsAboutAppendingToAPartialLine() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, fragment) = try await tornOutput(in: folder)
        let run = try await VisionTasksTool.run(Self.classify + ["--format", "jsonl", "--resume", output.path] + Self.images)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines.compactMap(FilesFromWorkerTests.record).map(\.image) == Array(Self.images.dropFirst()))
        #expect(
            run.diagnostics == [
                "warning: \(output.path) ends with a partial line (\(fragment) bytes, left by an interrupted run): its image "
                    + "is processed again. Appending with >> \(output.path) would join the next record to it; --output "
                    + "\(output.path) removes it first."
            ], "\(run)")
    }

    @Test func outputCreatesTheFileAndAppendsOnlyJSONLines() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("new.jsonl")
        let first = try await VisionTasksTool.run(Self.classify + ["--output", output.path, Self.images[0]])
        let second = try await VisionTasksTool.run(Self.classify + ["--output", output.path, Self.images[1]])
        #expect(first.status == 0 && second.status == 0 && first.diagnostics.isEmpty, "\(first)\n\(second)")
        #expect(try images(in: output) == Array(Self.images.prefix(2)))

        let table = try await VisionTasksTool.run(Self.classify + ["--format", "table", "--output", output.path, Self.images[0]])
        #expect(table.status == 2, "\(table)")
        #expect(
            table.diagnostics.first
                == "error: --output appends jsonl records, one line per image; --format table cannot be appended", "\(table)")
    }

    /// A resume file that cannot be read (a folder) is refused before the first image, and the
    /// `--output` file the run had just created is removed, not left empty.
    @Test func anUnreadableResumeFileLeavesNoOutputBehind() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("new.jsonl")
        let run = try await VisionTasksTool.run(
            Self.classify + ["--output", output.path, "--resume", folder.path, Self.images[0]])
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics.first?.hasPrefix("error: INVALID_ARGUMENT: \(folder.path): ") == true, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "\(run)")
    }

    /// Lines of the resume file that are not records are counted in one warning, and their
    /// images (if any) run again; blank lines are not counted.
    @Test func linesThatAreNotRecordsAreNamed() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await VisionTasksTool.run(Self.classify + ["--format", "jsonl", Self.images[0]])
        try #require(first.status == 0 && first.stdoutLines.count == 1, "\(first)")
        let resume = folder.appendingPathComponent("out.jsonl")
        try Data(("# a comment\n" + first.stdoutLines[0] + "\n\n{\"no\": \"image\"}\n").utf8).write(to: resume)
        let run = try await VisionTasksTool.run(Self.classify + ["--format", "jsonl", "--resume", resume.path] + Self.images)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines.compactMap(FilesFromWorkerTests.record).map(\.image) == Array(Self.images.dropFirst()))
        #expect(
            run.diagnostics == [
                "warning: \(resume.path): 2 lines are (the first: line 1) not a JSON record with an \"image\"; ignored, so "
                    + "any image they were for is processed again"
            ], "\(run)")
    }
}
