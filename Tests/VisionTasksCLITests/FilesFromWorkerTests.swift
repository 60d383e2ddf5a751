import Foundation
import TestSupport
import Testing

/// `classify --files-from`: the batch worker contract (Spark's RDD.pipe, xargs, GNU parallel):
/// paths read as they arrive, one flushed jsonl line per image, errors as lines, exit 0; and
/// `--shard`, `--resume`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct FilesFromWorkerTests {
    /// The `image` member of a jsonl line, and whether it is an error line.
    static func record(_ line: String) -> (image: String, failed: Bool)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let image = object["image"] as? String
        else { return nil }
        return (image, object["error"] != nil)
    }

    @Test("each path written to the pipe gets its line before the next path is written")
    func answersPathByPath() async throws {
        let input = Pipe()
        let worker = try StreamingToolRun(
            ["classify", "--model", Fixture.quantModel, "--max-results", "1", "--files-from", "-"],
            standardInput: input)
        let paths = [Fixture.burger, "/nonexistent/missing.jpg", Fixture.sparrowPNG, Fixture.image("cat.jpg")]
        for (index, path) in paths.enumerated() {
            try input.fileHandleForWriting.write(contentsOf: Data((path + "\n").utf8))
            let arrived = await worker.waitForLines(index + 1, safetyNet: 120)
            #expect(arrived, "no line for \(path) after writing it; lines so far: \(worker.linesSoFar.map(\.text))")
            guard arrived else { break }
            let line = worker.linesSoFar[index].text
            #expect(Self.record(line)?.image == path, "\(line)")
            #expect(Self.record(line)?.failed == (index == 1), "\(line)")
        }
        try input.fileHandleForWriting.close()
        let run = try await worker.finish(within: 120)
        #expect(run.status == 0, "a failed image leaves the status 0 with --files-from\n\(run)")
        #expect(run.stdoutLines.count == paths.count, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
    }

    @Test("a NUL-separated list with a folder, a bad file and no final separator")
    func nullSeparatedList() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["b.jpg", "a.png"] {
            try FileManager.default.copyItem(
                atPath: name.hasSuffix("jpg") ? Fixture.burger : Fixture.sparrowPNG,
                toPath: photos.appendingPathComponent(name).path)
        }
        let bad = folder.appendingPathComponent("not an image.jpg")
        try Data("hello".utf8).write(to: bad)
        let list = folder.appendingPathComponent("list")
        // A path with a newline in it: only NUL separates entries.
        let odd = folder.appendingPathComponent("line\nbreak.jpg")
        try FileManager.default.copyItem(atPath: Fixture.burger, toPath: odd.path)
        try Data((bad.path + "\0" + photos.path + "\0\0" + odd.path).utf8).write(to: list)
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--files-from", list.path, "-0"])
        #expect(run.status == 0, "\(run)")
        let records = run.stdoutLines.compactMap(Self.record)
        #expect(
            records.map(\.image) == [
                bad.path, photos.appendingPathComponent("a.png").path,
                photos.appendingPathComponent("b.jpg").path, odd.path,
            ], "\(run)")
        #expect(records.map(\.failed) == [true, false, false, false], "\(run)")
    }

    @Test("shards are disjoint and together complete, for several N")
    func shardsPartition() async throws {
        let folder = TestData.image("burger.jpg").deletingLastPathComponent().path
        let whole = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "jsonl", folder])
        let all = whole.stdoutLines.compactMap(Self.record).map(\.image)
        #expect(all.count >= 10, "\(whole)")
        for count in [1, 2, 3, 5] {
            var seen: [String] = []
            for index in 0..<count {
                let run = try await VisionTasksTool.run([
                    "classify", "--model", Fixture.quantModel, "--format", "jsonl",
                    "--shard", "\(index)/\(count)", folder,
                ])
                #expect(run.status == 0, "\(run)")
                seen += run.stdoutLines.compactMap(Self.record).map(\.image)
            }
            #expect(seen.sorted() == all.sorted(), "--shard I/\(count) over I: every image exactly once")
        }
    }

    @Test("resume skips the images with a result line, retries error lines, ignores a cut line")
    func resumeSkipsDoneImages() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = [Fixture.burger, Fixture.sparrowPNG, Fixture.image("cat.jpg"), Fixture.image("dogs.jpg")]
        let first = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--format", "jsonl",
            images[0], "/nonexistent/x.jpg",
        ])
        // An earlier output: burger done, x.jpg failed, cat.jpg's line cut short by a kill.
        let cat = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "jsonl", images[2]])
        let output = folder.appendingPathComponent("out.jsonl")
        try Data((first.stdout + String(cat.stdout.dropLast(20))).utf8).write(to: output)
        let list = folder.appendingPathComponent("list")
        try Data((images + ["/nonexistent/x.jpg"]).joined(separator: "\n").utf8).write(to: list)
        let run = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--files-from", list.path,
            "--resume", output.path,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdoutLines.compactMap(Self.record).map(\.image) == [images[1], images[2], images[3], "/nonexistent/x.jpg"],
            "\(run)")
        // A resume file that does not exist yet: nothing to skip.
        let fresh = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--format", "jsonl",
            "--resume", folder.appendingPathComponent("none.jsonl").path, images[0],
        ])
        #expect(fresh.status == 0 && fresh.stdoutLines.count == 1, "\(fresh)")
    }

    @Test("resume with every image done says so, loads no model and exits 0")
    func resumeWithNothingLeft() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = [Fixture.burger, Fixture.sparrowPNG, Fixture.image("cat.jpg")]
        let classify = ["classify", "--model", Fixture.quantModel]
        let first = try await VisionTasksTool.run(classify + ["--format", "jsonl"] + images)
        let output = folder.appendingPathComponent("out.jsonl")
        try Data(first.stdout.utf8).write(to: output)

        let again = try await VisionTasksTool.run(
            VisionTasksTool.verbose(classify + ["--format", "jsonl", "--resume", output.path] + images))
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.isEmpty, "\(again)")
        #expect(
            again.diagnostics == ["Nothing to do: all 3 images already have records in \(output.path)."], "\(again)")
        #expect(!again.compiledModel, "no model is loaded for nothing: \(again)")

        let one = try await VisionTasksTool.run(classify + ["--format", "json", "--resume", output.path, images[0]])
        #expect(one.status == 0, "\(one)")
        #expect(one.stdout == "[]\n", "json is still one array: \(one)")
        #expect(one.diagnostics == ["Nothing to do: the image already has a record in \(output.path)."], "\(one)")
    }

    @Test("a list that cannot be opened is an error naming it, exit 1")
    func missingList() async throws {
        let run = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--files-from", "/nonexistent/list.txt",
        ])
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics.first?.contains("/nonexistent/list.txt") == true, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
    }

    @Test(
        "usage errors",
        arguments: [
            (["--files-from", "-", "IMAGE"], "give images as arguments or with --files-from, not both"),
            (["-0", "IMAGE"], "-0 (--null) needs --files-from"),
            (["--files-from", "-", "--format", "table"], "--files-from prints jsonl"),
            (["--shard", "3/3", "IMAGE"], "--shard I/N needs N >= 1 and 0 <= I < N, got '3/3'"),
            (["--shard", "1", "IMAGE"], "--shard expects I/N (for example 0/4), got '1'"),
            ([String](), "no image given"),
        ])
    func usageErrors(arguments: [String], message: String) async throws {
        let run = try await VisionTasksTool.run(
            ["classify", "--model", Fixture.quantModel]
                + arguments.map { $0 == "IMAGE" ? Fixture.burger : $0 })
        #expect(run.status == 2, "\(run)")
        #expect(run.diagnostics.first?.contains(message) == true, "\(run)")
    }
}
