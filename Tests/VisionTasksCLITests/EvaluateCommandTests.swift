import Foundation
import TestSupport
import Testing

/// `vision-tasks evaluate` on a small labelled folder of the shared photos, named after
/// ImageNet classes the shared classifier knows; the figures' arithmetic is checked against
/// scikit-learn in `ClassificationMetricsTests`, the predictions here against `classify`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct EvaluateCommandTests {
    static let classes = ["brambling", "cheeseburger", "tabby"]
    static let photos = [
        ("brambling", "sparrow.jpg"), ("brambling", "sparrow.png"), ("cheeseburger", "burger.jpg"),
        ("cheeseburger", "burger-224.png"), ("cheeseburger", "burger_crop.jpg"), ("tabby", "cat.jpg"),
    ]

    /// The folder: a class folder per class, a broken photo, and a file beside the class folders.
    final class Dataset {
        let root: URL
        init() throws {
            root = try TestData.temporaryDirectory()
            for (name, photo) in EvaluateCommandTests.photos {
                let folder = root.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: TestData.image(photo), to: folder.appendingPathComponent(photo))
            }
            try Data("not a photo".utf8).write(to: root.appendingPathComponent("tabby/broken.jpg"))
            try Data("notes".utf8).write(to: root.appendingPathComponent("notes.txt"))
        }
        deinit { try? FileManager.default.removeItem(at: root) }
        func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    }

    /// The figures are those of `classify`: each photo's first two predictions give the
    /// confusion matrix and the top-2 accuracy; a label of the model that no class folder has
    /// but a photo was predicted as is a class too, with support 0, after the folder's (in the
    /// model's order: the ImageNet model has over `allLabelsLimit` labels, so only those).
    @Test func figuresAreThoseOfClassify() async throws {
        let dataset = try Dataset()
        let run = try await VisionTasksTool.run([
            "evaluate", "--model", Fixture.quantModel, "--top-k", "2", "--format", "json", dataset.root.path,
        ])
        #expect(run.status == 0, "\(run)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        var outcomes: [(label: Int, ranked: [(name: String, index: Int)])] = []
        for (name, photo) in Self.photos {
            let classify = try await VisionTasksTool.run(
                [
                    "classify", "--model", Fixture.quantModel, "--max-results", "2", "--format", "json",
                    dataset.path("\(name)/\(photo)"),
                ])
            let categories = try #require(
                (classify.jsonObjects(format: "json").first?["classifications"] as? [[String: Any]])?.first?["categories"]
                    as? [[String: Any]])
            let ranked = try categories.map { (try #require($0["categoryName"] as? String), try #require($0["index"] as? Int)) }
            outcomes.append((try #require(Self.classes.firstIndex(of: name)), ranked))
        }
        let absent = Set(outcomes.compactMap { $0.ranked.first }.filter { !Self.classes.contains($0.name) }.map(\.index))
            .sorted()
        let names = Dictionary(outcomes.flatMap(\.ranked).map { ($0.index, $0.name) }) { first, _ in first }
        let classes = Self.classes + absent.map { names[$0]! }
        #expect(!absent.isEmpty, "a photo of the set is predicted as a label no folder has")
        var matrix = Array(repeating: Array(repeating: 0, count: classes.count), count: classes.count)
        var topTwo = 0
        for outcome in outcomes {
            let ranked = outcome.ranked.map { classes.firstIndex(of: $0.name) }
            matrix[outcome.label][try #require(ranked.first ?? nil)] += 1
            if ranked.contains(outcome.label) { topTwo += 1 }
        }
        #expect(json["classes"] as? [String] == classes)
        #expect(json["confusionMatrix"] as? [[Int]] == matrix)
        #expect(json["otherPredictions"] as? [Int] == Array(repeating: 0, count: classes.count))
        #expect(json["count"] as? Int == 6)
        let correct = (0..<3).reduce(0) { $0 + matrix[$1][$1] }
        #expect(json["accuracy"] as? Double == Double(correct) / 6)
        #expect(json["topK"] as? Int == 2)
        #expect(json["topKAccuracy"] as? Double == Double(topTwo) / 6)
        let perClass = try #require(json["perClass"] as? [[String: Any]])
        #expect(perClass.map { $0["support"] as? Int } == [2, 3, 1] + absent.map { _ in 0 })
        // An absent label's precision: of the photos predicted as it, none is of it.
        #expect(perClass.dropFirst(3).allSatisfy { $0["precision"] as? Double == 0 && $0["recall"] as? Double == 0 })
        let skipped = try #require(json["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["image"] as? String } == [dataset.path("tabby/broken.jpg")])
        #expect(json["ignored"] as? [String] == [dataset.path("notes.txt")])
        #expect(run.stderr.contains("\(dataset.path("notes.txt")): ignored: not a .jpg, .jpeg, .png or .webp photo"), "\(run)")
        #expect(run.stderr.contains("\(dataset.path("tabby/broken.jpg")): skipped: INVALID_ARGUMENT: "), "\(run)")
    }

    @Test func tableCSVAndReport() async throws {
        let dataset = try Dataset()
        let report = dataset.path("report.html")
        let table = try await VisionTasksTool.run([
            "evaluate", "--model", Fixture.quantModel, "--report", report, dataset.root.path,
        ])
        #expect(table.status == 0, "\(table)")
        #expect(
            table.stdoutLines.first
                == "\(dataset.root.path): 6 photos in 3 classes (1 skipped, 1 file ignored); 1 label of the model that no "
                + "class folder has, listed with support 0")
        #expect(table.stdoutLines.contains { $0.hasPrefix("  class ") && $0.hasSuffix("precision   recall       f1  support") })
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("Confusion matrix (rows: true class, columns: predicted class)"))
        #expect(html.contains("<h2>\(dataset.path("tabby/broken.jpg"))</h2>") && html.contains("Skipped: "))
        #expect(html.contains("</html>"))
        if HeadlessChromium.path != nil {
            // Kept for people to look at: .build/artifacts/report-evaluate.png.
            let dom = try await HeadlessChromium.dumpDOM(URL(fileURLWithPath: report))
            #expect(dom.components(separatedBy: "<tr>").count - 1 == 1 + 4 + 1 + 4, "per-class and confusion rows")
            try await HeadlessChromium.screenshot(URL(fileURLWithPath: report), name: "report-evaluate.png", height: 1200)
        }

        let csv = try await VisionTasksTool.run(["evaluate", "--model", Fixture.quantModel, "--format", "csv", dataset.root.path])
        #expect(
            csv.stdoutLines.first
                == "class,precision,recall,f1,support,predicted:brambling,predicted:cheeseburger,predicted:tabby,"
                + "predicted:hummingbird,predicted:(other)")
        #expect(csv.stdoutLines.count == 5)
    }

    @Test func foldersThatCannotBeEvaluated() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        func folder(_ names: [String], photo: Bool) throws -> String {
            let top = root.appendingPathComponent(UUID().uuidString)
            for name in names {
                let folder = top.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                if photo {
                    try FileManager.default.copyItem(at: TestData.image("cat.jpg"), to: folder.appendingPathComponent("cat.jpg"))
                }
            }
            try FileManager.default.createDirectory(at: top, withIntermediateDirectories: true)
            return top.path
        }
        let cases = [
            (
                try folder([], photo: false),
                "The folder has no class folders: put each class's photos in a sub-folder named after the class."
            ),
            (try folder(["tabby", "empty"], photo: false), "No class folder has a .jpg, .jpeg, .png or .webp photo."),
            (
                try folder(["Tabby", "tabby"], photo: true),
                "The class folders 'Tabby' and 'tabby' differ only by case; rename or merge them."
            ),
        ]
        for (path, message) in cases {
            let run = try await VisionTasksTool.run(["evaluate", "--model", Fixture.quantModel, path])
            #expect(run.status == 1, "\(run)")
            #expect(run.diagnostics == ["error: INVALID_ARGUMENT: \(path): \(message)"], "\(run)")
        }
        let unknown = try folder(["tabby", "no such class"], photo: true)
        let run = try await VisionTasksTool.run(["evaluate", "--model", Fixture.quantModel, unknown])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics == [
                "error: INVALID_ARGUMENT: \(Fixture.quantModel): The model has no category named 'no such class': "
                    + "its labels must include every class folder's name."
            ], "\(run)")
        // A class folder without photos is a class with support 0, said so; the others are measured.
        let withEmpty = try folder(["tabby"], photo: true)
        try FileManager.default.createDirectory(
            atPath: withEmpty + "/tiger cat", withIntermediateDirectories: true)
        let empty = try await VisionTasksTool.run(["evaluate", "--model", Fixture.quantModel, "--format", "json", withEmpty])
        #expect(empty.status == 0, "\(empty)")
        #expect(
            empty.diagnostics == [
                "warning: the class folder 'tiger cat' has no .jpg, .jpeg, .png or .webp photo: it is counted as a class with support 0"
            ], "\(empty)")
        let figures = try #require(empty.jsonObjects(format: "json").first)
        // The tabby photo's first prediction is a class: tabby, tiger cat, or a label of the
        // model listed after them with support 0.
        let classes = try #require(figures["classes"] as? [String])
        #expect(Array(classes.prefix(2)) == ["tabby", "tiger cat"] && classes.count <= 3, "\(classes)")
        #expect(
            (figures["perClass"] as? [[String: Any]])?.map { $0["support"] as? Int } == [1, 0]
                + classes.dropFirst(2).map { _ in 0 })
        let two = try await VisionTasksTool.run(["evaluate", "--model", Fixture.quantModel, unknown, unknown])
        #expect(two.status == 2 && two.stderr.contains("give one FOLDER of class folders, got 2 arguments"), "\(two)")
    }

    /// `--report` replaces an earlier report, never another file (a photo named by mistake); a
    /// symbolic link is followed, as every output path's is.
    @Test func theReportNeverReplacesAnotherFile() async throws {
        let dataset = try Dataset()
        let photo = dataset.path("tabby/cat.jpg")
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        let run = try await VisionTasksTool.run(["evaluate", "--model", Fixture.quantModel, "--report", photo, dataset.root.path])
        #expect(run.status == 1, "\(run)")
        #expect(
            run.diagnostics.contains(
                "error: ALREADY_EXISTS: \(photo): The file exists and is not a vision-tasks report; it was not overwritten (give another path)."
            ),
            "\(run)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before)
        let link = dataset.path("link.html")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dataset.path("elsewhere.html"))
        let linked = try await VisionTasksTool.run([
            "evaluate", "--model", Fixture.quantModel, "--report", link, dataset.root.path,
        ])
        #expect(
            linked.status == 1
                && linked.diagnostics.last
                    == "error: NOT_FOUND: \(link): The report path is a symbolic link to nothing (what it names does not exist); "
                    + "give the file's own path.",
            "\(linked)")
        try Data().write(to: URL(fileURLWithPath: dataset.path("elsewhere.html")))
        let throughLink = try await VisionTasksTool.run([
            "evaluate", "--model", Fixture.quantModel, "--report", link, dataset.root.path,
        ])
        #expect(throughLink.status == 0, "\(throughLink)")
        #expect(
            try String(contentsOfFile: dataset.path("elsewhere.html"), encoding: .utf8).contains(
                "<meta name=\"generator\" content=\"vision-tasks\">"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == dataset.path("elsewhere.html"))
        let report = dataset.path("report.html")
        for _ in 0..<2 {
            let again = try await VisionTasksTool.run([
                "evaluate", "--model", Fixture.quantModel, "--report", report, dataset.root.path,
            ])
            #expect(again.status == 0, "an earlier report is replaced: \(again)")
        }
    }
}
