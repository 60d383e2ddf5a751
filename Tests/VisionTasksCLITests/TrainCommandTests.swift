import Foundation
import TestSupport
import Testing

/// `vision-tasks train` then `evaluate` on what it wrote, on a small subset of `clothing-small`.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct TrainCommandTests {
    static let extractor = TestData.model("mobilenet_v1_1.0_224_quant_embedding_extractor.tflite").path

    /// The first photos of `classes` (6 each) for training and for validation (3 each).
    static func subset(in root: URL, classes: [String] = ["hat", "shoes", "skirt"]) throws -> (train: String, validation: String)
    {
        for (split, count) in [("train", 6), ("validation", 3)] {
            for name in classes {
                let source = TestData.url("datasets/clothing-small/\(split)/\(name)")
                let folder = root.appendingPathComponent("\(split)/\(name)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for photo in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted().prefix(count) {
                    try FileManager.default.createSymbolicLink(
                        at: folder.appendingPathComponent(photo), withDestinationURL: source.appendingPathComponent(photo))
                }
            }
        }
        return (root.appendingPathComponent("train").path, root.appendingPathComponent("validation").path)
    }

    /// `--quantize` with a fine-tuned block and `--augment-views 2 --augment-exposure 0.5`: the
    /// summary gives the int8 model's accuracy beside the float one's, on the validation photos,
    /// and `evaluate` measures the int8 model as the summary says.
    @Test func aFineTunedModelIsQuantizedAndMeasured() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (train, validation) = try Self.subset(in: root)
        let output = root.appendingPathComponent("model").path
        let run = try await VisionTasksTool.run([
            "train", train, "--base", Self.extractor, "--validation", validation, "--output", output, "--no-cache",
            "--fine-tune", "1", "--epochs", "2", "--quantize", "--augment-views", "2", "--augment-exposure", "0.5",
            "--format", "json",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stderr.contains(
                "warning: only 9 validation photos for 3 classes: the best epoch and early stopping follow a validation loss "
                    + "that each photo moves a lot; give at least 50 (more photos, or a larger --validation-split)"),
            "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        #expect(report["trainingRows"] as? Int == 36, "two views of each of the 18 photos")
        // L-BFGS's figures have no meaning for epochs of Adam.
        #expect(report["converged"] == nil && report["gradientNorm"] == nil, "\(report)")
        let check = try #require(report["quantizedCheck"] as? [String: Any], "\(report)")
        #expect(check["photos"] as? String == "validation" && check["count"] as? Int == 9, "\(check)")
        #expect(check["floatAccuracy"] as? Double == report["validationAccuracy"] as? Double, "\(check)")
        let evaluate = try await VisionTasksTool.run([
            "evaluate", "--model", "\(output)/model_quantized.tflite", "--format", "json", validation,
        ])
        let metrics = try #require(try JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any])
        #expect(metrics["accuracy"] as? Double == check["quantizedAccuracy"] as? Double, "\(evaluate.stdout)")
    }

    /// A fit that did not converge says what to change: a larger budget, or, where the penalty
    /// is so strong that the weights stay all but 0 and the line search meets double
    /// precision's rounding, a smaller penalty (not "a larger --l2").
    @Test func aFitThatDidNotConvergeSaysWhatToChange() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (train, _) = try Self.subset(in: root)
        let base = ["train", train, "--base", Self.extractor, "--cache", root.appendingPathComponent("cache").path]
        let short = try await VisionTasksTool.run(base + ["--output", root.appendingPathComponent("a").path, "--epochs", "1"])
        #expect(short.status == 0, "\(short)")
        #expect(short.stdout.contains("fit on 18 rows: 1 iteration, "), "\(short.stdout)")
        #expect(short.stderr.contains("give more --epochs, a larger --l2, or another --feature-tensor"), "\(short.stderr)")
        let strong = try await VisionTasksTool.run(base + ["--output", root.appendingPathComponent("b").path, "--l2", "1e30"])
        #expect(strong.status == 0, "\(strong)")
        #expect(
            strong.stderr.contains("warning: the fit did not converge (line search failed: rounding errors")
                && strong.stderr.contains("--l2 1e+30 leaves the weights all but 0; give a smaller --l2"), "\(strong.stderr)")
    }

    /// `--epochs` counts the trained layers' epochs; the head fitted first still goes to its
    /// optimum (it stopped after as many L-BFGS iterations as epochs).
    @Test func theHeadFittedFirstIsNotBoundByTheEpochs() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (train, _) = try Self.subset(in: root)
        let run = try await VisionTasksTool.run([
            "train", train, "--base", Self.extractor, "--output", root.appendingPathComponent("m").path, "--cache",
            root.appendingPathComponent("cache").path, "--fine-tune", "1", "--epochs", "1", "--fit-head-first", "--format",
            "json",
        ])
        #expect(run.status == 0, "\(run)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        let tuning = try #require(report["fineTuning"] as? [String: Any], "\(report)")
        #expect((tuning["headFitIterations"] as? Int ?? 0) > 1, "\(tuning)")
    }

    @Test func augmentationValuesOutOfRangeAreUsageErrors() async throws {
        for (arguments, message) in [
            (["--augment-views", "1"], "--augment-views must be between 2 and 16, got 1"),
            (["--augment-exposure", "3"], "--augment-exposure must be between 0.0 and 2.0, got 3"),
            (["--augment-rotation", "x"], "--augment-rotation expects a number, got 'x'"),
        ] {
            let run = try await VisionTasksTool.run(["train", "data", "--base", Self.extractor, "--output", "out"] + arguments)
            #expect(run.status == 2 && run.stderr.contains(message), "\(run)")
        }
    }

    /// An `--output` that cannot be a new folder (a file, a link to nothing, a folder inside the
    /// photos through a link) is refused by what it is, before any photo is read.
    @Test func anOutputThatCannotBeANewFolderIsNamed() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (train, _) = try Self.subset(in: root)
        let file = root.appendingPathComponent("file").path
        try Data([1]).write(to: URL(fileURLWithPath: file))
        let dangling = root.appendingPathComponent("dangling").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nowhere")
        let intoData = root.appendingPathComponent("into-data").path
        try FileManager.default.createSymbolicLink(atPath: intoData, withDestinationPath: train)
        for (output, words) in [
            (file, "ALREADY_EXISTS: \(file): There is a regular file at the output folder's path; give the path of a new folder"),
            (dangling, "ALREADY_EXISTS: \(dangling): There is a symbolic link at the output folder's path"),
            (intoData + "/model", "INVALID_ARGUMENT: \(intoData)/model: The output folder is inside the photos' folder"),
        ] {
            let run = try await VisionTasksTool.run(["train", train, "--base", Self.extractor, "--output", output, "--no-cache"])
            #expect(run.status == 1 && run.diagnostics.first?.hasPrefix("error: " + words) == true, "\(run)")
            #expect(!run.stderr.contains("features"), "refused before any work: \(run)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data([1]))
    }

    /// The validation accuracy `train` computes from the fitted head is what `evaluate` measures
    /// with the exported model.
    @Test func evaluateMeasuresWhatTrainReported() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (train, validation) = try Self.subset(in: root)
        let output = root.appendingPathComponent("model").path
        let run = try await VisionTasksTool.run([
            "train", train, "--base", Self.extractor, "--validation", validation, "--output", output, "--no-cache", "--format",
            "json",
        ])
        #expect(run.status == 0, "\(run)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
        #expect(report["classes"] as? [String] == ["hat", "shoes", "skirt"])
        #expect(report["trainingCounts"] as? [Int] == [6, 6, 6])
        #expect(report["validationCount"] as? Int == 9)
        #expect(report["stopReason"] as? String == "converged")
        #expect(report["converged"] as? Bool == true && (report["gradientNorm"] as? Double ?? 1) < 1e-5, "\(report)")
        let evaluate = try await VisionTasksTool.run([
            "evaluate", "--model", "\(output)/model.tflite", "--format", "json", validation,
        ])
        #expect(evaluate.status == 0, "\(evaluate)")
        let metrics = try #require(try JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any])
        #expect(metrics["accuracy"] as? Double == report["validationAccuracy"] as? Double, "\(evaluate.stdout)")
        // A folder without skirts: the model's third label is still a class, with support 0 and
        // the precision of the photos predicted as it (a custom model's labels are all listed).
        let noSkirts = root.appendingPathComponent("no-skirts")
        for name in ["hat", "shoes"] {
            let folder = noSkirts.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for photo in try FileManager.default.contentsOfDirectory(atPath: "\(validation)/\(name)") {
                try FileManager.default.createSymbolicLink(
                    at: folder.appendingPathComponent(photo),
                    withDestinationURL: URL(fileURLWithPath: "\(validation)/\(name)/\(photo)"))
            }
        }
        let partial = try await VisionTasksTool.run([
            "evaluate", "--model", "\(output)/model.tflite", "--format", "json", noSkirts.path,
        ])
        let partialMetrics = try #require(
            try JSONSerialization.jsonObject(with: Data(partial.stdout.utf8)) as? [String: Any], "\(partial)")
        #expect(partialMetrics["classes"] as? [String] == ["hat", "shoes", "skirt"], "\(partial.stdout)")
        let perClass = try #require(partialMetrics["perClass"] as? [[String: Any]])
        #expect(perClass.map { $0["support"] as? Int } == [3, 3, 0])
        let matrix = try #require(partialMetrics["confusionMatrix"] as? [[Int]])
        #expect(matrix.count == 3 && matrix[2] == [0, 0, 0] && matrix.allSatisfy { $0.count == 3 })
        let index = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(output)/remote/index.json")))
                as? [String: Any])
        let entry = try #require((index["models"] as? [String: Any])?["model"] as? [String: Any], "\(index)")
        #expect(entry["file"] as? String == "model.zip" && entry["kind"] as? String == "automl-zip", "\(entry)")
        // The export's index is the one `models index` writes for the folder (which keeps it as is).
        let written = try Data(contentsOf: URL(fileURLWithPath: "\(output)/remote/index.json"))
        let reindexed = try await VisionTasksTool.run(["models", "index", "\(output)/remote"])
        #expect(reindexed.status == 0, "\(reindexed)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(output)/remote/index.json")) == written)
        let label = try await VisionTasksTool.run([
            "label", "--manifest", "\(output)/automl/manifest.json", "--format", "json",
            TestData.url("datasets/clothing-small/validation/hat").path,
        ])
        #expect(label.status == 0, "\(label)")
    }

    /// A penalty so strong that every score is a third: the quantized model's two best scores tie
    /// for every photo, and `train` says so (with the default penalty, no photo ties).
    @Test func quantizedScoresFlattenedByTheL2PenaltyAreWarnedAbout() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (train, validation) = try Self.subset(in: root)
        var ties: [Int] = []
        for (name, l2) in [("flat", ["--l2", "1e6"]), ("default", [])] {
            let run = try await VisionTasksTool.run(
                [
                    "train", train, "--base", Self.extractor, "--validation", validation, "--output",
                    root.appendingPathComponent(name).path, "--no-cache", "--quantize", "--format", "json",
                ] + l2)
            #expect(run.status == 0, "\(run)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run)")
            ties.append(try #require(report["quantizedTies"] as? Int, "\(report)"))
            #expect(report["quantizedTiesChecked"] as? Int == 9)
            let warning =
                "warning: in model_quantized.tflite, 9 of 9 validation photos get the same UINT8 score for their two best "
                + "classes, which it cannot rank (scores within 1/256 of each other; --l2 1e+06 flattens them): "
                + "use a smaller --l2, or model.tflite"
            #expect(run.stderr.contains(warning) == (name == "flat"), "\(run.stderr)")
        }
        #expect(ties == [9, 0])
    }

    /// A split of one photo per class keeps them all for training: the warning says so, not
    /// that photos could not be read.
    @Test func aSplitThatKeepsNoValidationPhotoSaysWhy() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["hat", "shoes"] {
            let source = TestData.url("datasets/clothing-small/train/\(name)")
            let folder = root.appendingPathComponent("data/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let photo = try #require(try FileManager.default.contentsOfDirectory(atPath: source.path).sorted().first)
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(photo), withDestinationURL: source.appendingPathComponent(photo))
        }
        let run = try await VisionTasksTool.run([
            "train", root.appendingPathComponent("data").path, "--base", Self.extractor, "--no-cache",
            "--output", root.appendingPathComponent("out").path, "--validation-split", "0.5",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stderr.contains(
                "warning: --validation-split 0.5 kept no photo for validation (each class keeps at least one photo, with its "
                    + "identical copies, for training): nothing was measured on validation photos, and the penalty is 1/N"),
            "\(run)")
        #expect(!run.stderr.contains("could be read"), "\(run)")
    }

    /// Early stopping after one epoch without a lower validation loss says "1 epoch" (2 classes
    /// of 6 photos, 3 for validation; epoch 3's validation loss is above epoch 2's).
    @Test func earlyStoppingNamesItsPatience() async throws {
        let root = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (train, validation) = try Self.subset(in: root, classes: ["hat", "shoes"])
        let run = try await VisionTasksTool.run([
            "train", train, "--validation", validation, "--base", Self.extractor, "--output",
            root.appendingPathComponent("out").path, "--no-cache", "--fine-tune", "1",
            "--epochs", "10", "--patience", "1",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("stopped after epoch 3: no lower validation loss in 1 epoch; best epoch 2"), "\(run)")
    }

    @Test func usageErrors() async throws {
        let both = try await VisionTasksTool.run([
            "train", "data", "--base", Self.extractor, "--output", "out", "--validation", "v", "--validation-split", "0.2",
        ])
        #expect(both.status == 2 && both.stderr.contains("give --validation or --validation-split, not both"), "\(both)")
        let split = try await VisionTasksTool.run(["train", "data", "--base", "b", "--output", "o", "--validation-split", "1"])
        #expect(
            split.status == 2 && split.stderr.contains("--validation-split expects a number between 0 and 1, got '1'"), "\(split)"
        )
        let noBase = try await VisionTasksTool.run(["train", "data", "--output", "o"])
        #expect(noBase.status == 2 && noBase.stderr.contains("--base"), "\(noBase)")
        let rate = try await VisionTasksTool.run([
            "train", "/nonexistent", "--base", "b", "--output", "o", "--learning-rate", "0.1",
        ])
        #expect(rate.stderr.contains("warning: --learning-rate is not used: L-BFGS chooses each step by line search"), "\(rate)")
        #expect(rate.status == 1, "\(rate)")
        let auto = try await VisionTasksTool.run(["train", "data", "--base", "b", "--output", "o", "--l2", "auto"])
        #expect(
            auto.status == 2
                && auto.diagnostics.first
                    == "error: --l2 auto chooses the penalty on the validation photos: give --validation DIR or "
                    + "--validation-split F, or a number",
            "\(auto)")
    }

    @Test(
        "fine-tuning usage errors",
        arguments: [
            (["--fine-tune", "2", "--fine-tune-from", "77"], "give --fine-tune or --fine-tune-from, not both"),
            (["--fine-tune", "-1"], "--fine-tune"),
            (
                ["--hidden-units", "256,x"],
                "--hidden-units expects 1 to 4 layer sizes between 1 and 16384 separated by commas, got '256,x'"
            ),
            (["--fine-tune", "1", "--optimizer", "rmsprop"], "--optimizer must be adam or sgd, got 'rmsprop'"),
            (
                ["--hidden-units", "8", "--l2", "auto"],
                "--l2 auto chooses the frozen head's penalty; with --fine-tune, --fine-tune-from or --hidden-units give a "
                    + "number (the trained layers' weight decay)"
            ),
            (["--l2", "much"], "--l2 expects a number >= 0 or auto, got 'much'"),
            (["--fine-tune", "1", "--dropout", "1"], "--dropout expects a number in [0, 1), got '1'"),
            (["--fine-tune", "1", "--learning-rate", "0"], "--learning-rate expects a number > 0, got 0.0"),
            (["--fine-tune", "1", "--class-weights", "auto"], "--class-weights must be none or balanced, got 'auto'"),
            (
                ["--fine-tune", "1", "--base-learning-rate-scale", "2"],
                "--base-learning-rate-scale expects a number in (0, 1], got '2'"
            ),
            (
                ["--fine-tune", "1", "--learning-rate-schedule", "step"],
                "--learning-rate-schedule must be constant or cosine, got 'step'"
            ),
        ])
    func fineTuningUsageErrors(arguments: [String], message: String) async throws {
        let run = try await VisionTasksTool.run(["train", "data", "--base", "b", "--output", "o"] + arguments)
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains(message), "\(run)")
    }

    /// A fine-tuned run prints an epoch line per epoch and the cut in its summary, and its model
    /// classifies (2 classes of 4 photos, 2 epochs).
    @Test func fineTuningShowsItsEpochs() async throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["hat", "shoes"] {
            let source = TestData.url("datasets/clothing-small/train/\(name)")
            let photos = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted().prefix(4)
            let target = folder.appendingPathComponent("data/\(name)")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for photo in photos {
                try FileManager.default.createSymbolicLink(
                    at: target.appendingPathComponent(photo), withDestinationURL: source.appendingPathComponent(photo))
            }
        }
        let output = folder.appendingPathComponent("out").path
        let run = try await VisionTasksTool.run([
            "train", folder.appendingPathComponent("data").path, "--base", Self.extractor, "--output", output,
            "--validation-split", "0.25", "--fine-tune", "1", "--epochs", "2", "--batch-size", "2", "--no-cache",
            "--learning-rate-schedule", "cosine",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("adam at 0.001 with cosine decay (base layers at 1x)"), "\(run)")
        let epochs = run.diagnostics.filter { $0.hasPrefix("epoch ") }
        #expect(epochs.count == 2 && epochs[0].hasPrefix("epoch 1/2: loss "), "\(run)")
        #expect(run.stdout.contains("trained 3 layers of the base from tensor 77 [1, 7, 7, 1024] and the head"), "\(run)")
        let classify = try await VisionTasksTool.run([
            "classify", "--model", output + "/model.tflite", folder.appendingPathComponent("data").path,
        ])
        #expect(classify.status == 0, "\(classify)")
    }
}
