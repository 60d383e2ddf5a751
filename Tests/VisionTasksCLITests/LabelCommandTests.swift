import Foundation
import TestSupport
import Testing

/// `vision-tasks label` with an AutoML export made at test time: table, json and jsonl output,
/// the confidence threshold and `--max-results`, checked against MediaPipe's scores on the same
/// decoded pixels (`Tests/Reference/mediapipe_decoded_pixels.json`).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct LabelCommandTests {
    /// The issue's acceptance check: roses first at 0.96484 (MediaPipe: 0.96484375), and with the
    /// default AutoML threshold 0.5 nothing else (the next label, tulips, scores 0.0117).
    @Test func acceptanceCheckPrintsRosesFirst() async throws {
        let export = try AutoMLExportFolder()
        let run = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, Fixture.burger])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        #expect(
            run.stdoutLines == [
                Fixture.burger,
                "  index  text   confidence",
                "      2  roses     0.96484",
            ], "\(run)")
        let reference = try #require(try LabelReference.categories(image: "burger.jpg").first)
        #expect(reference.index == 2 && String(format: "%.5f", reference.score) == "0.96484", "MediaPipe's answer")
    }

    /// For every shared photo, the labels are exactly MediaPipe's categories with a score at or
    /// above the threshold (nil: the default, 0.5 for AutoML exports): same indices, texts from
    /// dict.txt, confidences within one step, best first with ties by index.
    @Test(arguments: [nil, "0.5", "0", "0.3", "0.92"] as [String?])
    func labelsAreMediaPipesCategoriesAtOrAboveTheThreshold(confidence: String?) async throws {
        let export = try AutoMLExportFolder()
        let threshold = Float(confidence ?? "0.5")!
        let images = LabelReference.images.map(Fixture.image)
        let run = try await VisionTasksTool.run(
            ["label", "--manifest", export.manifestPath, "--format", "json"]
                + (confidence.map { ["--confidence", $0] } ?? []) + images)
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let outcomes = try run.jsonOutcomes()
        #expect(outcomes.map(\.image) == images)

        var labelCount = 0
        for (outcome, name) in zip(outcomes, LabelReference.images) {
            let reference = try LabelReference.categories(image: name)
            #expect(reference.count == AutoMLExportFolder.flowers.count, "the reference lists every category of \(name)")
            if threshold > 0 {
                // Otherwise one step of difference could move a category across the threshold.
                try #require(
                    reference.allSatisfy { abs($0.score - threshold) > LabelReference.step },
                    "\(name) has a score within one step of \(threshold): choose another threshold")
            }
            #expect(outcome.error == nil, "\(name)")
            let labels = try #require(outcome.labels, "\(name) has no labels key:\n\(run)")
            labelCount += labels.count
            let expected = reference.filter { $0.score >= threshold }
            #expect(Set(labels.map(\.index)) == Set(expected.map(\.index)), "\(name): \(labels)")
            #expect(labels.count == expected.count, "\(name): no label twice")
            #expect(labels.first?.index == expected.first?.index, "\(name): MediaPipe's best first")
            #expect(isLabelOrder(labels), "\(name): \(labels)")
            for label in labels {
                #expect(label.text == AutoMLExportFolder.flowers[label.index], "\(name): text from dict.txt")
                let category = try #require(expected.first { $0.index == label.index })
                #expect(
                    abs(label.confidence - category.score) <= LabelReference.step,
                    "\(name) \(label.text): \(label.confidence), MediaPipe \(category.score)")
            }
        }
        // The thresholds do filter: the totals for these 12 photos and 5 categories.
        let totals: [Float: Int] = [0.5: 9, 0: 60, 0.3: 14, 0.92: 6]
        #expect(labelCount == totals[threshold], "\(run)")
    }

    /// `--max-results N` keeps the N best labels (photos with no tie at any cut).
    @Test(arguments: [1, 2, 3, 4])
    func maxResultsKeepsTheBestLabels(maxResults: Int) async throws {
        let export = try AutoMLExportFolder()
        let names = ["cat.jpg", "dogs.jpg", "grace_hopper.jpg", "sparrow.jpg", "burger_rotation180.jpg"]
        let run = try await VisionTasksTool.run(
            [
                "label", "--manifest", export.manifestPath, "--format", "json", "--confidence", "0", "--max-results",
                String(maxResults),
            ] + names.map(Fixture.image))
        #expect(run.status == 0, "\(run)")
        let outcomes = try run.jsonOutcomes()
        try #require(outcomes.count == names.count, "\(run)")
        for (outcome, name) in zip(outcomes, names) {
            let reference = try LabelReference.categories(image: name)
            let best = reference.sorted { $0.score > $1.score }.prefix(maxResults + 1)
            try #require(Set(best.map(\.score)).count == best.count, "\(name) has a tie near the cut")
            #expect(outcome.labels?.map(\.index) == best.prefix(maxResults).map(\.index), "\(name): \(outcome)")
            #expect(outcome.labels?.map(\.text) == best.prefix(maxResults).map { AutoMLExportFolder.flowers[$0.index] })
        }
    }

    /// The threshold applies before `--max-results`: with the default 0.5, `--max-results 2`
    /// leaves one label on burger.jpg and none on cat.jpg (best: tulips at 0.445); with 0.3,
    /// dogs.jpg keeps tulips and roses (0.445, 0.379) and `--max-results 1` only tulips.
    @Test(arguments: [
        ([String](), 2, "burger.jpg", ["roses"]),
        ([], 2, "cat.jpg", []),
        (["--confidence", "0.3"], 5, "dogs.jpg", ["tulips", "roses"]),
        (["--confidence", "0.3"], 1, "dogs.jpg", ["tulips"]),
        (["--confidence", "0.3"], 2, "cat.jpg", ["tulips"]),
        (["--confidence", "0"], 2, "sparrow.png", ["daisy", "roses"]),
    ])
    func thresholdAndMaxResultsTogether(options: [String], maxResults: Int, image: String, texts: [String]) async throws {
        let export = try AutoMLExportFolder()
        let run = try await VisionTasksTool.run(
            [
                "label", "--manifest", export.manifestPath, "--format", "json",
                "--max-results", String(maxResults),
            ] + options + [Fixture.image(image)])
        #expect(run.status == 0, "\(run)")
        #expect(try run.singleImageLabels().map(\.text) == texts, "\(run)")
    }

    /// The texts are dict.txt's lines, not the model's metadata labels (which are the lowercase
    /// flower names): the export's labels file decides.
    @Test func textsComeFromTheLabelsFile() async throws {
        let latin = ["Bellis perennis", "Taraxacum", "Rosa", "Helianthus", "Tulipa"]
        let export = try AutoMLExportFolder(labels: latin)
        let table = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, Fixture.burger])
        #expect(table.status == 0, "\(table)")
        #expect(table.stdoutLines == [Fixture.burger, "  index  text  confidence", "      2  Rosa     0.96484"], "\(table)")

        let json = try await VisionTasksTool.run([
            "label", "--manifest", export.manifestPath, "--format", "json",
            "--confidence", "0", Fixture.image("cat.jpg"),
        ])
        #expect(json.status == 0, "\(json)")
        let labels = try json.singleImageLabels()
        #expect(labels.map(\.text) == ["Tulipa", "Rosa", "Bellis perennis", "Helianthus", "Taraxacum"], "\(json)")
        #expect(labels.map(\.index) == [4, 2, 0, 3, 1])
    }

    /// Table: one block per image, right-aligned index and confidence (five decimals), a note
    /// when no label reaches the threshold.
    @Test func tableListsEachImageAndSaysWhenNothingIsAboveTheThreshold() async throws {
        let export = try AutoMLExportFolder()
        let run = try await VisionTasksTool.run([
            "label", "--manifest", export.manifestPath, "--confidence", "0.3",
            Fixture.image("dogs.jpg"), Fixture.image("sparrow.png"), Fixture.burger,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdoutLines == [
                Fixture.image("dogs.jpg"),
                "  index  text    confidence",
                "      4  tulips     0.44531",
                "      2  roses      0.37891",
                Fixture.image("sparrow.png"),
                "  index  text   confidence",
                "      0  daisy     0.89844",
                Fixture.burger,
                "  index  text   confidence",
                "      2  roses     0.96484",
            ], "\(run)")

        let none = try await VisionTasksTool.run([
            "label", "--manifest", export.manifestPath, "--confidence", "0.99", Fixture.burger,
        ])
        #expect(none.status == 0, "no label is not an error:\n\(none)")
        #expect(
            none.stdoutLines == [
                Fixture.burger, "  index  text  confidence", "  (no label at or above the confidence threshold)",
            ],
            "\(none)")
        #expect(none.diagnostics.isEmpty, "\(none)")
    }

    /// `--format json`: one array of `{"image", "labels": [{"text", "confidence", "index"}]}`,
    /// keys sorted, an empty array (not a missing key) when no label reaches the threshold.
    @Test func jsonHasTheDocumentedShape() async throws {
        let export = try AutoMLExportFolder()
        let images = [Fixture.burger, Fixture.image("cat.jpg")]
        let run = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, "--format", "json"] + images)
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let snapshot =
            #"[{"image":"\#(images[0])","labels":[{"confidence":0.96484375,"index":2,"text":"roses"}]},"#
            + #"{"image":"\#(images[1])","labels":[]}]"#
        #expect(run.stdoutLines == [snapshot], "\(run)")

        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run)")
        #expect(parsed.count == 2)
        for object in parsed {
            #expect(Set(object.keys) == ["image", "labels"])
        }
        let label = try #require((parsed[0]["labels"] as? [[String: Any]])?.first)
        #expect(Set(label.keys) == ["text", "confidence", "index"])
        #expect(label["text"] as? String == "roses")
        #expect(label["index"] as? Int == 2)
        #expect(label["confidence"] as? Double == 0.96484375)
    }

    /// `--format jsonl`: one object per line and image, in argument order, the same outcomes as json.
    @Test func jsonlPrintsOneLinePerImageLikeJson() async throws {
        let export = try AutoMLExportFolder()
        let names = ["sparrow.png", "burger.jpg", "dogs.jpg", "burger-224.png", "grace_hopper.jpg"]
        let images = names.map(Fixture.image)
        let arguments = ["label", "--manifest", export.manifestPath, "--confidence", "0.3"] + images
        let jsonl = try await VisionTasksTool.run(arguments + ["--format", "jsonl"])
        #expect(jsonl.status == 0, "\(jsonl)")
        #expect(jsonl.stdoutLines.count == images.count, "\(jsonl)")
        for line in jsonl.stdoutLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not one object: \(line)")
        }
        let outcomes = try jsonl.jsonlOutcomes()
        #expect(outcomes.map(\.image) == images)
        #expect(
            outcomes.map { $0.labels?.map(\.text) ?? ["missing"] } == [
                ["daisy"], ["roses"], ["tulips", "roses"], ["roses"], ["roses"],
            ], "\(jsonl)")

        let json = try await VisionTasksTool.run(arguments + ["--format=json"])
        #expect(json.status == 0, "\(json)")
        #expect(try json.jsonOutcomes() == outcomes)
    }

    /// A missing, an empty and a garbage file among good photos: each has an error object
    /// `{"image", "error": {"code", "message"}}` in place, the photos are still labeled, status 1.
    @Test(arguments: ["json", "jsonl"])
    func badImagesAreReportedInPlace(format: String) async throws {
        let export = try AutoMLExportFolder()
        let missing = export.folder.appendingPathComponent("missing.jpg").path
        let empty = export.folder.appendingPathComponent("empty.jpg").path
        let garbage = export.folder.appendingPathComponent("garbage.png").path
        try Data().write(to: URL(fileURLWithPath: empty))
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }).write(to: URL(fileURLWithPath: garbage))
        let images = [Fixture.burger, missing, Fixture.sparrowPNG, empty, garbage, Fixture.image("grace_hopper.jpg")]
        let codes = [missing: "NOT_FOUND", empty: "INVALID_ARGUMENT", garbage: "INVALID_ARGUMENT"]

        let run = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, "--format", format] + images)
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics.isEmpty, "errors are in the JSON:\n\(run)")
        let outcomes = try format == "json" ? run.jsonOutcomes() : run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == images)
        for outcome in outcomes {
            let name = URL(fileURLWithPath: outcome.image).lastPathComponent
            if let code = codes[outcome.image] {
                #expect(outcome.labels == nil, "\(name)")
                let error = try #require(outcome.error, "\(name) has no error:\n\(run)")
                #expect(error.code == code, "\(name): \(error.message)")
                #expect(error.message.contains(name), "\(name): the reason names the file: \(error.message)")
            } else {
                #expect(outcome.error == nil, "\(name)")
                let best = try LabelReference.categories(image: name)[0]
                #expect(outcome.labels?.map(\.index) == [best.index], "\(name)")
                #expect(outcome.labels?.map(\.text) == [AutoMLExportFolder.flowers[best.index]], "\(name)")
            }
        }

        let objects = run.jsonObjects(format: format)
        try #require(objects.count == images.count, "\(run)")
        for object in objects where codes[object["image"] as? String ?? ""] != nil {
            #expect(Set(object.keys) == ["image", "error"])
            #expect((object["error"] as? [String: Any]).map { Set($0.keys) } == ["code", "message"])
        }
    }

    /// In a table, a bad image is one stderr line `PATH: error: CODE: reason`; the others print.
    @Test func tableReportsBadImagesOnStderr() async throws {
        let export = try AutoMLExportFolder()
        let missing = export.folder.appendingPathComponent("missing.jpg").path
        let run = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, missing, Fixture.burger])
        #expect(run.status == 1, "\(run)")
        #expect(run.diagnostics.count == 1 && run.diagnostics[0].hasPrefix("\(missing): error: NOT_FOUND: "), "\(run)")
        #expect(run.stdoutLines == [Fixture.burger, "  index  text   confidence", "      2  roses     0.96484"], "\(run)")
    }

    /// A folder is searched recursively like classify's; its copies label like the originals.
    @Test func folderIsLabeledRecursively() async throws {
        let export = try AutoMLExportFolder()
        let photos = export.folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("nested"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestData.image("sparrow.png"), to: photos.appendingPathComponent("nested/s.png"))
        try FileManager.default.copyItem(at: TestData.image("burger.jpg"), to: photos.appendingPathComponent("b.jpg"))
        try Data("daisy\n".utf8).write(to: photos.appendingPathComponent("notes.txt"))

        let run = try await VisionTasksTool.run(["label", "--manifest", export.manifestPath, "--format", "jsonl", photos.path])
        #expect(run.status == 0, "\(run)")
        let outcomes = try run.jsonlOutcomes()
        #expect(outcomes.map(\.image) == [photos.path + "/b.jpg", photos.path + "/nested/s.png"], "\(run)")
        #expect(outcomes.map { $0.labels?.map(\.text) ?? [] } == [["roses"], ["daisy"]], "\(run)")
    }
}

/// `vision-tasks label --model`: a custom model whose labels and threshold come from its
/// metadata (the quantized MobileNet has labels and no threshold, so the threshold is 0).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct CustomModelLabelTests {
    @Test func tablePrintsCheeseburgerFirst() async throws {
        let run = try await VisionTasksTool.run(["label", "--model", Fixture.quantModel, Fixture.burger])
        #expect(run.status == 0, "\(run)")
        #expect(run.diagnostics.isEmpty, "\(run)")
        let lines = run.stdoutLines
        try #require(
            lines.count == 2 + 6 + 1,
            "path, header, the default 10 labels (threshold 0) but the 4 at 0.00000, and a line counting those:\n\(run)")
        #expect(lines[0] == Fixture.burger)
        #expect(lines[1].split(separator: " ") == ["index", "text", "confidence"])
        #expect(lines[2].split(separator: " ") == ["934", "cheeseburger", "0.97266"], "\(run)")
    }

    /// `--max-results` limits the labels (default 10); the best is cheeseburger at MediaPipe's
    /// score; texts are the metadata's labels.
    @Test(arguments: [(nil, 10), ("1", 1), ("3", 3), ("25", 25)] as [(String?, Int)])
    func maxResultsLimitsTheLabels(maxResults: String?, count: Int) async throws {
        let run = try await VisionTasksTool.run(
            ["label", "--model", Fixture.quantModel, "--format", "json"]
                + (maxResults.map { ["--max-results", $0] } ?? []) + [Fixture.burger])
        #expect(run.status == 0, "\(run)")
        let labels = try run.singleImageLabels()
        #expect(labels.count == count, "\(run)")
        let top = try #require(labels.first)
        #expect(top.index == 934 && top.text == "cheeseburger", "\(run)")
        let reference = try LabelReference.categories(model: Fixture.quantModelName, image: "burger.jpg")
        #expect(reference.first?.index == 934)
        #expect(
            abs(top.confidence - (reference.first?.score ?? -1)) <= LabelReference.step,
            "MediaPipe: \(reference.first?.score ?? -1)")
        #expect(isLabelOrder(labels), "\(labels)")
        #expect(labels.allSatisfy { !$0.text.isEmpty }, "every MobileNet output has a label")
        for label in labels {
            if let category = reference.first(where: { $0.index == label.index }) {
                #expect(label.text == category.categoryName, "index \(label.index)")
            }
        }
        if count > 1 {
            #expect(labels.dropFirst().allSatisfy { $0.confidence < 0.05 }, "no 0.5 default threshold for custom models")
        }
    }

    @Test func confidenceFiltersCustomModelLabels() async throws {
        let run = try await VisionTasksTool.run([
            "label", "--model", Fixture.quantModel, "--format", "json",
            "--confidence", "0.5", Fixture.burger,
        ])
        #expect(run.status == 0, "\(run)")
        #expect(try run.singleImageLabels().map(\.text) == ["cheeseburger"], "\(run)")
    }
}
