import Foundation
import TestSupport
import Testing

/// Images that cannot be read among good ones: each is reported with its path and reason, the
/// others are still classified, and the exit status is 1.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ImageErrorTests {
    /// A bad file, what to write there (nil: nothing, so it is missing) and the status MediaPipe's
    /// vocabulary gives it.
    struct BadImage: Sendable {
        let name: String
        let contents: Data?
        let code: String
    }

    static let badImages = [
        BadImage(name: "missing.jpg", contents: nil, code: "NOT_FOUND"),
        BadImage(name: "empty.jpg", contents: Data(), code: "INVALID_ARGUMENT"),
        BadImage(
            name: "garbage.png", contents: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }),
            code: "INVALID_ARGUMENT"),
    ]

    /// The arguments: a good photo, the bad files, another good photo at the end, interleaved.
    private func arguments(in folder: URL) throws -> (images: [String], bad: [String: BadImage]) {
        var bad: [String: BadImage] = [:]
        for item in Self.badImages {
            let url = folder.appendingPathComponent(item.name)
            if let contents = item.contents { try contents.write(to: url) }
            bad[url.path] = item
        }
        let paths = Self.badImages.map { folder.appendingPathComponent($0.name).path }
        return ([Fixture.burger, paths[0], paths[1], Fixture.sparrowPNG, paths[2]], bad)
    }

    @Test(arguments: ["json", "jsonl"])
    func jsonReportsEachBadImageInPlace(format: String) async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (images, bad) = try arguments(in: folder)
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", format] + images)
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics.isEmpty, "errors are in the JSON:\n\(run)")

        let outcomes = try format == "json" ? run.jsonOutcomes() : run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == images)
        for outcome in outcomes {
            let name = URL(fileURLWithPath: outcome.image).lastPathComponent
            if let expected = bad[outcome.image] {
                #expect(outcome.classifications == nil, "\(name)")
                let error = try #require(outcome.error, "\(name) has no error:\n\(run)")
                #expect(error.code == expected.code, "\(name): \(error.message)")
                #expect(error.message.contains(name), "\(name): the reason names the file: \(error.message)")
            } else {
                #expect(outcome.error == nil, "\(name)")
                #expect(
                    outcome.categories.first?.index == (try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: name)),
                    "\(name)")
            }
        }

        // The exact shape of an error entry: {"image", "error": {"code", "message"}}.
        let objects = run.jsonObjects(format: format)
        try #require(objects.count == images.count, "\(run)")
        for object in objects where bad[object["image"] as? String ?? ""] != nil {
            #expect(Set(object.keys) == ["image", "error"])
            #expect((object["error"] as? [String: Any]).map { Set($0.keys) } == ["code", "message"])
        }
    }

    /// In a table, errors go to stderr as `PATH: error: CODE: reason`; results go to stdout.
    @Test func tableReportsBadImagesOnStderr() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (images, bad) = try arguments(in: folder)
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--max-results", "1"] + images)
        #expect(run.status == 1, "\(run)")

        let badPaths = images.filter { bad[$0] != nil }
        try #require(run.diagnostics.count == badPaths.count, "one line per bad image:\n\(run)")
        for (line, path) in zip(run.diagnostics, badPaths) {
            let item = try #require(bad[path])
            #expect(line.hasPrefix("\(path): error: \(item.code): "), "\(line)")
            #expect(line.count > "\(path): error: \(item.code): ".count, "a reason follows: \(line)")
        }

        let printedImages = run.stdoutLines.filter { !$0.hasPrefix(" ") }
        #expect(printedImages == [Fixture.burger, Fixture.sparrowPNG], "\(run)")
        let rows = run.stdoutLines.filter { $0.hasPrefix("      ") }.map { $0.split(separator: " ").first.map(String.init) }
        #expect(
            rows == [
                String(try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: "burger.jpg")),
                String(try Fixture.mediaPipeTop(model: Fixture.quantModelName, image: "sparrow.png")),
            ])
    }

    /// Only bad images: nothing is classified, every one is reported, status 1.
    @Test func onlyBadImages() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (images, bad) = try arguments(in: folder)
        let badPaths = images.filter { bad[$0] != nil }
        let run = try await VisionTasksTool.run(["classify", "--model", Fixture.quantModel, "--format", "json"] + badPaths)
        #expect(run.status == 1, "\(run)")
        let outcomes = try run.jsonOutcomes()
        #expect(outcomes.map(\.image) == badPaths)
        #expect(outcomes.allSatisfy { $0.error != nil && $0.classifications == nil })
    }

    /// A region outside the image is a usage error, found before any image is read, with
    /// MediaPipe's reason (the check is `RegionOfInterest`'s, the library's own).
    @Test func regionOutsideTheImageIsAUsageError() async throws {
        let run = try await VisionTasksTool.run([
            "classify", "--model", Fixture.quantModel, "--roi", "0.5,0.5,0.6,0.6", Fixture.burger,
        ])
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(
            run.diagnostics.first == "error: --roi must lie inside the image (X, Y, W, H normalized to [0, 1]): "
                + "Expected RectF values to be in [0,1]. Got left 0.5, top 0.5, right 1.1, bottom 1.1. Given '0.5,0.5,0.6,0.6'.",
            "\(run)")
    }
}
