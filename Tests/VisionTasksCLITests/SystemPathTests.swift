import Foundation
import Glibc
import TestSupport
import Testing

/// Paths as the system gives them: file and folder names that are not UTF-8 are found and
/// read (JSON shows the bytes as `\xNN`), a folder that cannot be walked is an error for that
/// path (never skipped), and control characters in names are escaped in tables.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct SystemPathTests {
    /// "café.jpg" in Latin-1: 0xE9 alone is not UTF-8.
    static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
    /// A folder name of two bytes that are never UTF-8.
    static let binaryFolderName: [UInt8] = [0xFF, 0xFE] + Array("dir".utf8)

    private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: ["classify", "label"])
    func nonUTF8FileNameGivenAsAnArgumentIsRead(command: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { ByteNamedFiles.removeTree(folder.path) }
        let path = try ByteNamedFiles.write(
            try TestData.bytes("images/burger.jpg"), named: Self.latin1Name, in: utf8(folder.path))

        let run = try await VisionTasksTool.run(bytes: [
            utf8(command), utf8("--model"), utf8(Fixture.quantModel),
            utf8("--format"), utf8("jsonl"), path,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let outcomes = try run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == [folder.path + "/caf\\xE9.jpg"], "the bytes, escaped: \(run)")
        let top = command == "classify" ? outcomes.first?.categories.first?.categoryName : outcomes.first?.labels?.first?.text
        #expect(top == "cheeseburger", "\(run)")
    }

    /// `metadata write --output` with a name that is not UTF-8 writes exactly that name (the
    /// bytes are not replaced by U+FFFD on the way), from a model named the same way.
    @Test func metadataIsWrittenToANonUTF8Name() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { ByteNamedFiles.removeTree(folder.path) }
        let input = try ByteNamedFiles.write(
            try TestData.bytes("models/mobilenet_v1_0.25_224_quant.tflite"),
            named: Array("in".utf8) + [0xE9] + Array(".tflite".utf8),
            in: utf8(folder.path))
        let output = utf8(folder.path) + [UInt8(ascii: "/")] + Array("out".utf8) + [0xE9] + Array(".tflite".utf8)
        let run = try await VisionTasksTool.run(bytes: [
            utf8("metadata"), utf8("write"), input, utf8("--output=") + output, utf8("--name"), utf8("bytes"),
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutLines.first == "wrote \(folder.path)/out\\xE9.tflite", "\(run)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 2, "only the input and the output: \(names)")
        #expect(ByteNamedFiles.withCString(output) { access($0, R_OK) } == 0, "the output exists under its own bytes")
    }

    /// A folder holding a Latin-1 file name and a sub-folder whose name is not UTF-8: both are
    /// found (sorted by bytes), read, and shown escaped in JSON and in the table.
    @Test func folderWithNonUTF8NamesIsWalked() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { ByteNamedFiles.removeTree(folder.path) }
        try ByteNamedFiles.write(try TestData.bytes("images/burger.jpg"), named: Self.latin1Name, in: utf8(folder.path))
        let subfolder = try ByteNamedFiles.makeFolder(named: Self.binaryFolderName, in: utf8(folder.path))
        try ByteNamedFiles.write(try TestData.bytes("images/sparrow.png"), named: utf8("sparrow.png"), in: subfolder)

        let json = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "json", folder.path])
        #expect(json.status == 0, "\(json)")
        #expect(json.diagnostics.isEmpty, "\(json)")
        let outcomes = try json.jsonOutcomes()
        #expect(outcomes.map(\.image) == [folder.path + "/caf\\xE9.jpg", folder.path + "/\\xFF\\xFEdir/sparrow.png"], "\(json)")
        #expect(
            outcomes.first?.categories.first?.index
                == (try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: "burger.jpg")))
        #expect(
            outcomes.last?.categories.first?.index
                == (try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: "sparrow.png")))

        let table = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--max-results", "1", folder.path])
        #expect(table.status == 0, "\(table)")
        #expect(
            table.stdoutLines.filter { !$0.hasPrefix(" ") }
                == [folder.path + "/caf\\xE9.jpg", folder.path + "/\\xFF\\xFEdir/sparrow.png"], "\(table)")
    }

    /// Folders nested until the path is longer than PATH_MAX (4096 bytes), a photo at the
    /// bottom: the deepest folders cannot be opened by path, which is reported for that path
    /// (its middle abbreviated in the message) with exit status 1; the photo beside them is
    /// still classified.
    @Test(arguments: ["json", "jsonl", "table"])
    func pathLongerThanPathMaxIsReported(format: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { ByteNamedFiles.removeTree(folder.path) }
        try TestData.bytes("images/burger.jpg").write(to: folder.appendingPathComponent("top.jpg"))
        let component = String(repeating: "d", count: 200)
        let deepest = try ByteNamedFiles.writeNested(
            try TestData.bytes("images/sparrow.png"), named: "bottom.png", depth: 22,
            folderName: component, in: folder.path)
        try #require(deepest.count > 4096, "the photo's path is \(deepest.count) bytes")

        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", format, folder.path])
        #expect(run.status == 1, "\(run)")
        if format == "table" {
            #expect(run.stdoutLines.first == folder.path + "/top.jpg", "\(run)")
            try #require(run.diagnostics.count == 1, "\(run)")
            let line = run.diagnostics[0]
            #expect(line.hasPrefix(folder.path + "/" + component + "/"), "\(line.prefix(200))")
            #expect(line.contains(": error: INVALID_ARGUMENT: "), "\(line.prefix(200))")
            #expect(line.contains("longer than the system accepts (PATH_MAX"), "\(line.suffix(300))")
            return
        }
        #expect(run.diagnostics.isEmpty, "\(run)")
        let outcomes = try format == "json" ? run.jsonOutcomes() : run.jsonlOutcomes()
        try #require(outcomes.count == 2, "the unreadable folder, then top.jpg (sorted by bytes): \(run)")
        let failure = try #require(outcomes[0].error, "\(run)")
        #expect(outcomes[0].image.hasPrefix(folder.path + "/" + component + "/" + component), "\(outcomes[0].image.prefix(200))")
        #expect(outcomes[0].image.utf8.count > 4095, "the folder whose path is too long: \(outcomes[0].image.utf8.count) bytes")
        #expect(failure.code == "INVALID_ARGUMENT", "\(failure)")
        #expect(
            failure.message.contains(
                "its path is \(outcomes[0].image.utf8.count) bytes, longer than the system accepts (PATH_MAX"),
            "\(failure.message)")
        #expect(failure.message.hasPrefix(String(folder.path.prefix(40))), "names the path: \(failure.message)")
        #expect(failure.message.count < 500, "the path is abbreviated in the message: \(failure.message.count) characters")
        #expect(outcomes[1].image == folder.path + "/top.jpg")
        #expect(
            outcomes[1].categories.first?.index == (try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: "burger.jpg")))
    }

    /// A newline (and a tab, ESC, the C1 CSI, a line separator, a right-to-left override) in a
    /// file name: the table shows `\n`, `\t`, `\u{1B}`, `\u{9B}`, `\u{2028}`, `\u{202E}`, so
    /// the output has exactly its expected lines; stderr lines of unreadable files likewise;
    /// JSON has the real name.
    @Test func controlCharactersInFileNamesAreEscapedInTables() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { ByteNamedFiles.removeTree(folder.path) }
        let name = "two\nlines\tand\u{1B}[31mred\u{9B}31m\u{2028}\u{202E}.jpg"
        try TestData.bytes("images/burger.jpg").write(to: folder.appendingPathComponent(name))
        let missing = folder.appendingPathComponent("missing\nfile.jpg").path
        let image = folder.path + "/" + name

        let table = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--max-results", "1", image, missing,
        ])
        #expect(table.status == 1, "\(table)")
        #expect(
            table.stdoutLines == [
                folder.path + "/two\\nlines\\tand\\u{1B}[31mred\\u{9B}31m\\u{2028}\\u{202E}.jpg",
                "  head 0 (probability)",
                "    index  category name    score",
                "      934  cheeseburger   0.97266",
            ], "\(table)")
        #expect(table.diagnostics.count == 1, "\(table)")
        #expect(table.diagnostics.first?.hasPrefix(folder.path + "/missing\\nfile.jpg: error: NOT_FOUND: ") == true, "\(table)")

        for format in ["json", "jsonl"] {
            let run = try await VisionTasksTool.run([
                "classify", "--model", Fixture.quantModel, "--format", format, image, missing,
            ])
            #expect(run.status == 1, "\(run)")
            let outcomes = try format == "json" ? run.jsonOutcomes() : run.jsonlOutcomes()
            #expect(outcomes.map(\.image) == [image, missing], "the real names: \(run)")
        }
    }

    /// A sub-folder that may not be read is an error for that folder (as root, which may read
    /// anything, there is no such folder: skipped).
    @Test(.enabled(if: getuid() != 0, "root may read any folder"))
    func unreadableSubfolderIsReported() async throws {
        let folder = try TestData.temporaryDirectory()
        defer {
            chmod(folder.appendingPathComponent("locked").path, 0o755)
            ByteNamedFiles.removeTree(folder.path)
        }
        try TestData.bytes("images/burger.jpg").write(to: folder.appendingPathComponent("a.jpg"))
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try TestData.bytes("images/sparrow.png").write(to: locked.appendingPathComponent("b.png"))
        chmod(locked.path, 0)

        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "jsonl", folder.path])
        #expect(run.status == 1, "\(run)")
        let outcomes = try run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == [folder.path + "/a.jpg", locked.path], "\(run)")
        #expect(outcomes.last?.error?.code == "PERMISSION_DENIED", "\(run)")
    }
}
