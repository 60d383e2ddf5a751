import FileSystem
import Foundation
import Glibc
import TasksCommon
import TestSupport
import Testing

/// The one rule for output paths (`AtomicWrite.destination`, `checkNewFolder`): a replaced file
/// keeps its permissions, a symbolic link is written through, and what cannot be an output is
/// refused by name before anything is written.
@Suite struct OutputPathRuleTests {
    private static let kind = FileKind(noun: "test file", maximumByteCount: .max)

    private func permissions(_ path: String) throws -> mode_t {
        try FileStatus(of: FileSystemPath(path)).permissions
    }

    @Test(arguments: [0o600, 0o400, 0o640, 0o755] as [mode_t])
    func aReplacedFileKeepsItsPermissions(mode: mode_t) throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("kept.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(chmod(target, mode) == 0)
        try AtomicWrite.write(Array("new".utf8), to: FileSystemPath(target), kind: Self.kind)
        #expect(try permissions(target) == mode)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("new".utf8))
    }

    @Test func aLinkIsWrittenThroughAndStays() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        let file = elsewhere.appendingPathComponent("real.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: file))
        let link = folder.appendingPathComponent("link.bin").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "elsewhere/real.bin")
        try AtomicWrite.write(Array("new".utf8), to: FileSystemPath(link), kind: Self.kind)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "elsewhere/real.bin")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["real.bin"])
    }

    @Test func aLinkToNothingIsRefusedAndKept() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("dangling.bin").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "missing.bin")
        let error = #expect(throws: TasksError.self) {
            try AtomicWrite.write([1], to: FileSystemPath(link), kind: Self.kind)
        }
        #expect(error?.code == .notFoundError)
        #expect(
            error?.message
                == "\(link): The test file path is a symbolic link to nothing (what it names does not exist); give the file's own path."
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["dangling.bin"])
    }

    @Test func aFIFOIsNotReplaced() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let error = #expect(throws: TasksError.self) { try AtomicWrite.write([1], to: FileSystemPath(fifo), kind: Self.kind) }
        #expect(error?.message == "\(fifo): The test file cannot be written: this is a FIFO; only a regular file is written.")
        #expect(try FileStatus(of: FileSystemPath(fifo)).type == .fifo)
    }

    @Test(.enabled(if: getuid() != 0, "root may write in any folder"))
    func aReadOnlyFolderIsNamed() throws {
        let folder = try TestData.temporaryDirectory()
        defer {
            chmod(folder.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        let target = folder.appendingPathComponent("writable.bin").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        #expect(chmod(folder.path, 0o555) == 0)
        let error = #expect(throws: TasksError.self) { try AtomicWrite.write([1], to: FileSystemPath(target), kind: Self.kind) }
        #expect(error?.code == .permissionDeniedError)
        #expect(
            error?.message
                == "\(target): The test file cannot be written: its folder \(folder.path) is not writable (a file is "
                + "replaced by writing its new version beside it).")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("old".utf8))
    }

    @Test func aNewFolderMustNotExistAndNeedsItsParent() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file").path
        try Data([1]).write(to: URL(fileURLWithPath: file))
        let dangling = folder.appendingPathComponent("dangling").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "missing")
        let cases: [(String, TasksErrorCode, String)] = [
            (
                folder.path, .alreadyExistsError,
                "The test file exists already; give the path of a new folder (nothing was written)."
            ),
            (
                file, .alreadyExistsError,
                "There is a regular file at the test file's path; give the path of a new folder (nothing was written)."
            ),
            (
                dangling, .alreadyExistsError,
                "There is a symbolic link at the test file's path; give the path of a new folder (nothing was written)."
            ),
            (
                folder.path + "/missing/new", .notFoundError,
                "The test file cannot be created: its parent folder \(folder.path)/missing does not exist."
            ),
            (file + "/new", .notFoundError, "The test file cannot be created: \(file) is not a folder."),
        ]
        for (path, code, reason) in cases {
            let error = #expect(throws: TasksError.self) { try AtomicWrite.checkNewFolder(FileSystemPath(path), kind: Self.kind) }
            #expect(error?.code == code, "\(path)")
            #expect(error?.message == "\(path): \(reason)")
        }
        let linked = folder.appendingPathComponent("linked").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: folder.path)
        #expect(
            try AtomicWrite.checkNewFolder(FileSystemPath(linked + "/new"), kind: Self.kind).description == folder.path + "/new")
    }
}
