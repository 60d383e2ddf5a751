import FileSystem
import Foundation
import TasksCommon
import TestSupport
import Testing

/// The durable atomic write: the whole new file or the old one, never a staging file left.
@Suite struct AtomicWriteTests {
    private static let kind = FileKind(noun: "test file", maximumByteCount: .max)

    private func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aWriteReplacesTheFileAndLeavesNothingElse() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out.bin")
        try Data("old".utf8).write(to: target)
        try AtomicWrite.write(Array("new contents".utf8), to: FileSystemPath(target.path), kind: Self.kind)
        #expect(try Data(contentsOf: target) == Data("new contents".utf8))
        #expect(try names(folder) == ["out.bin"])
    }

    @Test func aWriteIntoAMissingFolderNamesItAndWritesNothing() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = FileSystemPath(folder.appendingPathComponent("missing/out.bin").path)
        let error = #expect(throws: TasksError.self) { try AtomicWrite.write([1, 2], to: target, kind: Self.kind) }
        #expect(error?.code == .notFoundError)
        #expect(
            error?.message
                == "\(target): The test file cannot be written: its folder \(folder.path)/missing does not exist.")
        #expect(try names(folder).isEmpty)
    }

    @Test func aFolderInTheWayIsKeptAndNoStagingFileIsLeft() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data([7]).write(to: target.appendingPathComponent("inside"))
        let error = #expect(throws: TasksError.self) {
            try AtomicWrite.write([1, 2], to: FileSystemPath(target.path), kind: Self.kind)
        }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message
                == "\(target.path): The test file cannot be written: this is a folder; give the path of the file to write.")
        #expect(try names(folder) == ["taken"])
        #expect(try names(target) == ["inside"])
    }

    @Test func aPublishedFolderArrivesWholeAndNeverReplacesOne() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = FileSystemPath(folder.appendingPathComponent("export").path)
        try AtomicWrite.writeFolder(
            [("top.txt", Data("t".utf8)), ("sub/a.txt", Data("a".utf8)), ("sub/deeper/b.txt", Data("b".utf8))], as: target,
            kind: Self.kind)
        for (path, contents) in [("top.txt", "t"), ("sub/a.txt", "a"), ("sub/deeper/b.txt", "b")] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: target.description + "/" + path)) == Data(contents.utf8))
        }

        let second = AtomicWrite.stagingPath(for: target)
        try FileTree.makeDirectory(second)
        let error = #expect(throws: TasksError.self) { try AtomicWrite.publishFolder(second, as: target, kind: Self.kind) }
        #expect(error?.code == .alreadyExistsError)
        #expect(error?.message == "\(target): The test file exists already; nothing was replaced.")
        #expect(try names(folder) == ["export"], "the second staging folder is removed")
    }

    @Test func staleStagingIsRemovedOnlyForItsTargetAndOnlyWhenOld() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = FileSystemPath(folder.appendingPathComponent("model.tflite").path)
        let other = FileSystemPath(folder.appendingPathComponent("other.tflite").path)
        let old = AtomicWrite.stagingPath(for: target)
        let fresh = AtomicWrite.stagingPath(for: target)
        let othersOld = AtomicWrite.stagingPath(for: other)
        // An earlier version's export staging folder.
        let legacy = FileSystemPath(folder.appendingPathComponent(".model.tflite.partial-0A1B").path)
        let now = Date()
        for path in [old, fresh, othersOld, legacy] {
            try Data([1]).write(to: URL(fileURLWithPath: path.description))
        }
        for path in [old, othersOld, legacy] {
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-AtomicWrite.staleAge - 1)], ofItemAtPath: path.description)
        }
        #expect(AtomicWrite.removeStaleStaging(of: target, now: now) == 2)
        let left = try names(folder)
        #expect(left.count == 2)
        #expect(!left.contains(String(old.description.split(separator: "/").last!)))
        #expect(!left.contains(".model.tflite.partial-0A1B"))
    }
}
