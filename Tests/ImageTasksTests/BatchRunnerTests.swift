import Foundation
import ImageTasks
import TasksCommon
import TestSupport
import Testing

/// The task layer's batch behaviour, in process, for every task with one table of cases: input
/// order kept whatever the workers, errors per file, `--shard` and `--resume`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct BatchRunnerTests {
    /// A folder of photos with a broken file in the middle, and a path that does not exist.
    final class Photos {
        let folder: URL
        let files: [String]
        let broken: String
        let missing: String

        init() throws {
            folder = try TestData.temporaryDirectory()
            var files: [String] = []
            let sources = ["burger.jpg", "sparrow.png", "cat.jpg", "dogs.jpg", "burger_crop.jpg", "multi_objects.jpg"]
            for (number, name) in sources.enumerated() {
                let path = folder.appendingPathComponent("\(number)-\(name)").path
                try FileManager.default.copyItem(atPath: TestData.image(name).path, toPath: path)
                files.append(path)
            }
            broken = folder.appendingPathComponent("3b-broken.jpg").path
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: URL(fileURLWithPath: broken))
            files.insert(broken, at: 4)
            missing = folder.appendingPathComponent("9-missing.jpg").path
            self.files = files + [missing]
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let jobs: Int
        /// "I/N", or nil for all images.
        let shard: String?
        /// Indexes into the photos whose earlier record is a success (skipped), an error
        /// (retried) or another task's success (retried: classify's output is no embedding).
        let resumeSucceeded: [Int]
        let resumeFailed: [Int]
        var resumeOtherTask: [Int] = []
    }

    static let cases = [
        Case(testDescription: "one worker", jobs: 1, shard: nil, resumeSucceeded: [], resumeFailed: []),
        Case(testDescription: "three workers keep the input order", jobs: 3, shard: nil, resumeSucceeded: [], resumeFailed: []),
        Case(testDescription: "shard 0/2", jobs: 2, shard: "0/2", resumeSucceeded: [], resumeFailed: []),
        Case(testDescription: "shard 1/2", jobs: 2, shard: "1/2", resumeSucceeded: [], resumeFailed: []),
        Case(
            testDescription: "resume skips successes, retries errors and other tasks' records", jobs: 2, shard: nil,
            resumeSucceeded: [0, 2], resumeFailed: [1], resumeOtherTask: [3]),
    ]

    @Test(arguments: BatchTaskKind.allCases, cases)
    func batch(task: BatchTaskKind, batchCase: Case) throws {
        let photos = try Photos()
        let resume = photos.folder.appendingPathComponent("earlier.jsonl")
        let earlier =
            batchCase.resumeSucceeded.map { #"{"image":"\#(photos.files[$0])","\#(task.recordKey)":[]}"# }
            + batchCase.resumeFailed.map { #"{"image":"\#(photos.files[$0])","error":{"code":"UNKNOWN","message":"x"}}"# }
            + batchCase.resumeOtherTask.map { #"{"image":"\#(photos.files[$0])","\#(task.otherRecordKey)":[]}"# }
            + [#"{"image":"cut short"#]
        try Data(earlier.joined(separator: "\n").utf8).write(to: resume)
        let shard = try batchCase.shard.map { try Shard($0) }
        let source = try ImageSource(
            images: photos.files.map { FileSystemPath($0) }, filesFrom: nil, shard: shard, resume: task.resumeFile(resume.path))
        let (lines, listFailure) = try task.run(source, jobs: batchCase.jobs)
        #expect(listFailure == nil)

        let skipped = Set(batchCase.resumeSucceeded.map { photos.files[$0] })
        let expected = photos.files.filter { !skipped.contains($0) && (shard?.contains(FileSystemPath($0)) ?? true) }
        #expect(lines.map(\.image) == expected, "outcomes in input order, one per image kept")
        for line in lines {
            switch line.image {
            case photos.missing: #expect(line.errorCode == "NOT_FOUND", "\(line.record)")
            case photos.broken: #expect(line.errorCode == "INVALID_ARGUMENT", "\(line.record)")
            default:
                #expect(line.errorCode == nil, "\(line.record)")
                #expect(line.record == (try task.directRecord(line.image)), "the runner's record is the task's own")
            }
        }
    }

    @Test("the shards of a run are disjoint and together cover every image", arguments: BatchTaskKind.allCases)
    func shardsPartition(task: BatchTaskKind) throws {
        let photos = try Photos()
        var seen: [String] = []
        for index in 0..<3 {
            let source = try ImageSource(
                images: photos.files.map { FileSystemPath($0) }, filesFrom: nil, shard: try Shard("\(index)/3"))
            let images = try task.run(source, jobs: 2).lines.map(\.image)
            #expect(images == photos.files.filter(images.contains), "each shard keeps the input order")
            seen += images
        }
        #expect(seen.sorted() == photos.files.sorted())
    }

    @Test("a list read as it arrives, with a folder entry and an empty folder entry", arguments: BatchTaskKind.allCases)
    func list(task: BatchTaskKind) throws {
        let photos = try Photos()
        let empty = photos.folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let list = photos.folder.appendingPathComponent("list.txt")
        try Data("\(photos.files[0])\n\n\(empty.path)\n\(photos.folder.path)\n".utf8).write(to: list)
        let source = try ImageSource(images: [], filesFrom: list.path)
        #expect(source.isList && source.knownCount == nil)
        let lines = try task.run(source, jobs: 2).lines
        let folderImages = photos.files.filter { $0 != photos.missing }.sorted()
        #expect(lines.map(\.image) == [photos.files[0], empty.path] + folderImages)
        #expect(lines[1].record.contains(ImageSource.emptyFolderReason))
    }

    @Test("a folder argument without images is refused, naming it")
    func emptyFolderArgument() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: TasksError.invalidArgument(ImageSource.emptyFolderReason, subject: .file(folder.path))) {
            try ImageSource(images: [FileSystemPath(folder.path)], filesFrom: nil)
        }
        #expect(error?.condition == .emptyFolder)
    }

    @Test(
        "shard texts",
        arguments: [
            ("0/1", true), ("3/4", true), ("4/4", false), ("-1/2", false), ("1/0", false), ("1", false), ("a/b", false),
        ])
    func shardTexts(text: String, valid: Bool) {
        #expect(((try? Shard(text)) != nil) == valid, "\(text)")
    }
}
