import Foundation
import TestSupport
import Testing

/// Folder arguments: searched recursively for .jpg, .jpeg, .png and .webp files, sorted by path,
/// other files skipped. The folders are made at test time in a temporary directory with copies
/// of the shared photos.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct FolderArgumentTests {
    /// Copies shared photos (by name) to paths relative to `folder` and writes the text files.
    private func populate(_ folder: URL, photos: [String: String], textFiles: [String] = []) throws {
        for (relativePath, photo) in photos {
            let destination = folder.appendingPathComponent(relativePath)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestData.image(photo), to: destination)
        }
        for relativePath in textFiles {
            let destination = folder.appendingPathComponent(relativePath)
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("not an image\n".utf8).write(to: destination)
        }
    }

    @Test func folderImagesAreClassifiedSortedByPathSkippingOtherFiles() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = [
            "b.jpg": "burger.jpg",
            "a/nested/sparrow.png": "sparrow.png",
            "c.JPEG": "burger_crop.jpg",
            "a/burger-224.png": "burger-224.png",
        ]
        try populate(folder, photos: photos, textFiles: ["notes.txt", "labels.csv", "a/README", "a/nested/model.tflite"])

        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "jsonl", folder.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let outcomes = try run.jsonlOutcomes()
        let expectedOrder = ["a/burger-224.png", "a/nested/sparrow.png", "b.jpg", "c.JPEG"]
        #expect(outcomes.map(\.image) == expectedOrder.map { folder.path + "/" + $0 })
        for (outcome, relativePath) in zip(outcomes, expectedOrder) {
            let photo = try #require(photos[relativePath])
            #expect(outcome.error == nil, "\(relativePath)")
            #expect(
                outcome.categories.first?.index == (try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: photo)),
                "\(relativePath) is a copy of \(photo)")
        }
    }

    /// A folder's copy classifies exactly like the shared file it copies.
    @Test func folderResultsEqualTheFilesResults() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try populate(folder, photos: ["1.jpg": "burger.jpg", "2.png": "sparrow.png"])
        let options = ["classify", "--model", Fixture.quantModel, "--format", "json", "--max-results", "-1"]
        let fromFolder = try await VisionTasksTool.run(options + [folder.path])
        let fromFiles = try await VisionTasksTool.run(options + [Fixture.burger, Fixture.sparrowPNG])
        let folderOutcomes = try fromFolder.jsonOutcomes()
        let fileOutcomes = try fromFiles.jsonOutcomes()
        try #require(folderOutcomes.count == 2 && fileOutcomes.count == 2, "\(fromFolder)\n\(fromFiles)")
        for (copy, original) in zip(folderOutcomes, fileOutcomes) {
            #expect(copy.classifications == original.classifications, "\(copy.image) vs \(original.image)")
        }
    }

    /// Files and folders mixed: argument order is kept, each folder expands in place.
    @Test func filesAndFoldersKeepArgumentOrder() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try populate(folder, photos: ["y.jpg": "burger_crop.jpg", "x.png": "burger-224.png"], textFiles: ["z.txt"])
        let run = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--format", "jsonl", Fixture.sparrowPNG, folder.path, Fixture.burger,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            try run.jsonlOutcomes().map(\.image)
                == [Fixture.sparrowPNG, folder.path + "/x.png", folder.path + "/y.jpg", Fixture.burger])
    }

    /// A sub-folder whose name ends in an image extension is a folder to search, not an image.
    @Test func subfolderNamedLikeAnImageIsSearched() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try populate(folder, photos: ["album.jpg/burger.jpg": "burger.jpg"])
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "jsonl", folder.path])
        #expect(run.status == 0, "\(run)")
        #expect(try run.jsonlOutcomes().map(\.image) == [folder.path + "/album.jpg/burger.jpg"], "\(run)")
    }

    /// A symbolic link to a photo inside a folder is a photo of that folder (as the same path
    /// given as an argument is).
    @Test func symlinkedImageInAFolderIsClassified() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try populate(folder, photos: ["b.png": "sparrow.png"])
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("a.jpg"), withDestinationURL: TestData.image("burger.jpg"))
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "jsonl", folder.path])
        #expect(run.status == 0, "\(run)")
        let outcomes = try run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == [folder.path + "/a.jpg", folder.path + "/b.png"], "\(run)")
        #expect(outcomes.first?.categories.first?.index == 934, "\(run)")
    }
}
