import Foundation
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing

/// Zips built by hand (`ZipWriter`), appended to built models as the metadata writer does.
@Suite struct AssociatedFilesTests {
    static let prefix = TestModels.model(storage: .inline(TestModels.metadata()))

    static func modelBytes(_ entries: [ZipWriter.Entry]) -> Data {
        Data(prefix + ZipWriter.archive(entries, prefixLength: prefix.count))
    }

    @Test func storedFiles() throws {
        let model = try TFLiteModelFile(
            bytes: Self.modelBytes([
                .init(name: "labels.txt", data: Array("a\nb\n".utf8)),
                .init(name: "empty.txt", data: []),
                .init(name: "dir/ü.txt", data: [0, 1, 2]),
            ]))
        #expect(model.associatedFiles.names == ["labels.txt", "empty.txt", "dir/ü.txt"])
        #expect(try model.associatedFiles.contents(of: "labels.txt") == Data("a\nb\n".utf8))
        #expect(try model.associatedFiles.contents(of: "empty.txt") == Data())
        #expect(try model.associatedFiles.contents(of: "dir/ü.txt") == Data([0, 1, 2]))
        expectTasksError(
            .notFoundError,
            message: "No associated file with name: other.txt (the model's zip holds: labels.txt, empty.txt, dir/ü.txt)"
        ) {
            _ = try model.associatedFiles.contents(of: "other.txt")
        }
    }

    @Test func emptyZip() throws {
        let files = AssociatedFiles(modelBytes: Self.modelBytes([]))
        #expect(files.hasArchive)
        expectTasksError(.notFoundError, message: "No associated file with name: a (the model's zip is empty)") {
            _ = try files.contents(of: "a")
        }
    }

    @Test func compressedEntry() {
        let bytes = Self.modelBytes([
            .init(name: "labels.txt", data: Array("a\nb\n".utf8)),
            .init(name: "packed.txt", data: Array("hello".utf8), method: .deflated),
        ])
        let message = "Expected uncompressed zip archive. Associated file 'packed.txt' is compressed (zip compression method 8)"
        // With metadata, the model is refused, as MediaPipe refuses it.
        expectTasksError(.unknownError, message: message, prefix: true) { _ = try TFLiteModelFile(bytes: bytes) }
        // Read on their own, the files report the same error on access.
        let files = AssociatedFiles(modelBytes: bytes)
        #expect(files.readError?.message.hasPrefix(message) == true)
        expectTasksError(.unknownError, message: message, prefix: true) { _ = try files.contents(of: "labels.txt") }
    }

    @Test func compressedEntryInModelWithoutMetadataIsReportedOnAccess() throws {
        let prefix = TestModels.model(storage: .none)
        let bytes = Data(
            prefix + ZipWriter.archive([.init(name: "x", data: [1, 2, 3], method: .deflated)], prefixLength: prefix.count))
        let model = try TFLiteModelFile(bytes: bytes)
        #expect(model.metadata == nil)
        expectTasksError(.unknownError, message: "Expected uncompressed zip archive.", prefix: true) {
            _ = try model.associatedFiles.contents(of: "x")
        }
    }

    /// The central directory is intact but claims more data than the entry has.
    @Test func cutEntryData() {
        let bytes = Self.modelBytes([.init(name: "labels.txt", data: Array("abcdef".utf8), declaredSize: 60)])
        expectTasksError(.unknownError, message: "Unable to read the file in zip archive. 'labels.txt'", prefix: true) {
            _ = try TFLiteModelFile(bytes: bytes)
        }
    }

    /// The central directory claims a size larger than the whole model.
    @Test func hugeDeclaredSize() {
        let bytes = Self.modelBytes([.init(name: "big", data: [1], declaredSize: 0xFFFF_FFF0)])
        expectTasksError(.unknownError, message: "Unable to read the file in zip archive. 'big'", prefix: true) {
            _ = try TFLiteModelFile(bytes: bytes)
        }
    }

    /// The central directory points at a local header past the end of the data.
    @Test(arguments: [UInt32(0x7FFF_FFF0), 0xFFFF_FFF0])
    func missingLocalHeader(offset: UInt32) {
        let bytes = Self.modelBytes([.init(name: "labels.txt", data: Array("abc".utf8), centralHeaderOffset: offset)])
        expectTasksError(.unknownError, message: "Unable to read the file in zip archive. 'labels.txt'", prefix: true) {
            _ = try TFLiteModelFile(bytes: bytes)
        }
    }

    @Test("no zip at the end", arguments: [0, 1, 21, 22, 30])
    func zipCut(removed: Int) throws {
        let full = Self.modelBytes([.init(name: "labels.txt", data: Array("abc".utf8))])
        let bytes = full.prefix(full.count - removed)
        let model = try TFLiteModelFile(bytes: bytes)
        if removed == 0 {
            #expect(try model.associatedFiles.contents(of: "labels.txt") == Data("abc".utf8))
        } else {
            #expect(!model.associatedFiles.hasArchive)
            expectTasksError(
                .notFoundError,
                message:
                    "No associated file with name: labels.txt (the model has no zip of associated files, or it is truncated or corrupt; libzip: ",
                prefix: true
            ) {
                _ = try model.associatedFiles.contents(of: "labels.txt")
            }
        }
    }

    @Test func emptyData() {
        let files = AssociatedFiles(modelBytes: Data())
        #expect(!files.hasArchive)
        #expect(files.names.isEmpty)
        #expect(throws: TasksError.self) { _ = try files.contents(of: "labels.txt") }
    }
}
