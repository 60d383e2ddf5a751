import Foundation
import ImageLabeling
import ImageTasks
import ModelCache
import ModelDownloads
import TFLiteMetadata
import TasksCommon
import TestSupport
import Testing
import TrainingPipeline
import VisionTasks

/// `ClassifierTrainer` in process on a small subset of `clothing-small`: the export loads in
/// the classifier and the labeler and agrees with the fitted head; runs are deterministic and
/// reuse cached features; bad folders and options are named.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ClassifierTrainerTests {
    static let extractor = TestData.model("mobilenet_v1_1.0_224_quant_embedding_extractor.tflite").path

    /// Links to the first `count` photos of each of `classes` in `clothing-small/train`.
    final class Subset {
        let root: URL
        init(classes: [String] = ["hat", "shoes", "skirt"], count: Int = 6) throws {
            root = try TestData.temporaryDirectory()
            for name in classes {
                let source = TestData.url("datasets/clothing-small/train/\(name)")
                let photos = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted().prefix(count)
                let folder = root.appendingPathComponent("data/\(name)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for photo in photos {
                    try FileManager.default.createSymbolicLink(
                        at: folder.appendingPathComponent(photo), withDestinationURL: source.appendingPathComponent(photo))
                }
            }
        }
        deinit { try? FileManager.default.removeItem(at: root) }
        var data: FileSystemPath { FileSystemPath(root.appendingPathComponent("data").path) }
        func url(_ name: String) -> URL { root.appendingPathComponent(name) }

        func configuration(output: String = "out", cache: String? = "cache") -> TrainingConfiguration {
            var configuration = TrainingConfiguration(
                data: data, base: ClassifierTrainerTests.extractor, output: url(output), name: "clothes", description: "A test.")
            configuration.validation = .split(0.34)
            configuration.seed = 7
            configuration.cacheRoot = cache.map(url)
            return configuration
        }
    }

    @Test func theExportLoadsAndAgreesWithTheFit() throws {
        let subset = try Subset()
        let report = try ClassifierTrainer.train(subset.configuration())
        #expect(report.classes == ["hat", "shoes", "skirt"])
        #expect(report.trainingCounts == [4, 4, 4] && report.validationCount == 6, "2 of each 6 photos validate")
        // With validation photos and no --l2, the penalty is chosen on them from the grid.
        #expect(report.stopReason == "converged" && report.l2Grid.count == 7, "\(report)")
        #expect(report.l2Grid.contains { $0.l2 == report.l2Strength }, "\(report.l2Grid)")
        #expect(report.trainingAccuracy == 1)
        // Every photo through the exported model: its first category is the fitted head's prediction,
        // so the model's accuracy on the validation photos is the report's.
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = subset.url("out/model.tflite").path
        let classifier = try ImageClassifier(options: options)
        let folder = try LabeledImageFolder(subset.data)
        var right = 0
        for example in folder.examples {
            let top = try classifier.classify(image: MPImage(contentsOfFile: example.input.path)).classificationResult
                .classifications[0].categories[0]
            if top.categoryName == folder.classes[example.label] { right += 1 }
        }
        let expected = (report.trainingAccuracy * 12 + (report.validationAccuracy ?? 0) * 6) / 18
        #expect(abs(Double(right) / 18 - expected) < 1e-9, "the exported model gives the fit's accuracy")
        // The AutoML export labels as ML Kit does.
        let labeler = ImageLabeler.imageLabeler(
            options: AutoMLImageLabelerOptions(
                localModel: AutoMLImageLabelerLocalModel(manifestPath: subset.url("out/automl/manifest.json").path)))
        let labels = try labeler.results(in: VisionImage(contentsOfFile: folder.examples[0].input.path))
        #expect(labels.first?.text == "hat")
        #expect(FileManager.default.fileExists(atPath: subset.url("out/remote/clothes.zip").path))
        // The library's export is a model source too: its index names the bundle, version 1.
        let indexFile = subset.url("out/remote/index.json")
        let index = try ModelIndex(json: Data(contentsOf: indexFile), subject: .file(indexFile.path))
        #expect(index.models["clothes"]?.file == "clothes.zip" && index.models["clothes"]?.version == 1)
    }

    @Test func runsAreDeterministicAndReadTheCache() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 4)
        let firstRun = try ClassifierTrainer.train(subset.configuration(output: "first"))
        #expect(firstRun.computedFeatures == 8 && firstRun.cachedFeatures == 0)
        let cached = try FileManager.default.subpathsOfDirectory(atPath: subset.url("cache").path).filter { $0.hasSuffix(".f32") }
        #expect(cached.count == 8, "one entry per photo")
        let secondRun = try ClassifierTrainer.train(subset.configuration(output: "second"))
        #expect(secondRun.computedFeatures == 0 && secondRun.cachedFeatures == 8)
        _ = try ClassifierTrainer.train(subset.configuration(output: "uncached", cache: nil))
        let first = try Data(contentsOf: subset.url("first/model.tflite"))
        #expect(try Data(contentsOf: subset.url("second/model.tflite")) == first)
        #expect(try Data(contentsOf: subset.url("uncached/model.tflite")) == first)

        // A photo replaced by another under the same name and modification time: the cache is
        // keyed by content, so that photo alone is computed again.
        let hats = subset.url("data/hat")
        let replaced = hats.appendingPathComponent(try FileManager.default.contentsOfDirectory(atPath: hats.path).sorted()[0])
        let time = try FileManager.default.attributesOfItem(atPath: replaced.path)[.modificationDate]
        try FileManager.default.removeItem(at: replaced)
        try FileManager.default.copyItem(at: TestData.image("cat.jpg"), to: replaced)
        try FileManager.default.setAttributes([.modificationDate: try #require(time)], ofItemAtPath: replaced.path)
        let changed = try ClassifierTrainer.train(subset.configuration(output: "changed"))
        #expect(changed.computedFeatures == 1 && changed.cachedFeatures == 7, "\(changed)")

        // A photo that does not decode is skipped, run after run, and never counted as computed.
        try Data("not a photo".utf8).write(to: hats.appendingPathComponent("broken.jpg"))
        for output in ["broken", "broken-again"] {
            let run = try ClassifierTrainer.train(subset.configuration(output: output))
            #expect(run.skipped.count == 1 && run.computedFeatures == 0 && run.cachedFeatures == 8, "\(run)")
        }
    }

    @Test func badInputIsNamedAndNothingIsWritten() throws {
        let subset = try Subset(classes: ["hat"], count: 2)
        #expect(
            throws: TasksError.invalidArgument(
                "The folder has one class ('hat'); a classifier needs at least two class folders.",
                subject: .file(subset.data.description))
        ) {
            try ClassifierTrainer.train(subset.configuration())
        }
        let two = try Subset(classes: ["hat", "shoes"], count: 2)
        try FileManager.default.createDirectory(at: two.url("exists"), withIntermediateDirectories: true)
        #expect(
            throws: TasksError(
                .alreadyExistsError, "The output folder exists already; give the path of a new folder (nothing was written).",
                subject: .file(two.url("exists").path))
        ) {
            try ClassifierTrainer.train(two.configuration(output: "exists"))
        }
        var unknownTensor = two.configuration(output: "never")
        unknownTensor.featureTensor = "no such tensor"
        #expect {
            try ClassifierTrainer.train(unknownTensor)
        } throws: { error in
            let error = error as? TasksError
            return error?.subject == .file(Self.extractor)
                && error?.reason.hasPrefix("The base model has no tensor named 'no such tensor' (nor with that index)") == true
        }
        #expect(!FileManager.default.fileExists(atPath: two.url("never").path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: two.root.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty)
    }

    @Test func theSplitIsStratifiedAndSeeded() throws {
        let subset = try Subset(classes: ["hat", "shoes", "skirt"], count: 10)
        let folder = try LabeledImageFolder(subset.data)
        let (training, validation) = ValidationSplit.split(folder.examples, fraction: 0.2, seed: 3)
        #expect(validation.count == 6 && training.count == 24)
        #expect(Dictionary(grouping: validation, by: \.label).mapValues(\.count) == [0: 2, 1: 2, 2: 2])
        #expect(ValidationSplit.split(folder.examples, fraction: 0.2, seed: 3).validation == validation)
        #expect(ValidationSplit.split(folder.examples, fraction: 0.2, seed: 4).validation != validation)
        #expect(Set(training.map(\.input.path.description)).isDisjoint(with: validation.map(\.input.path.description)))
    }

    /// `--l2 auto`: every λ of the grid fitted and measured on the validation photos, the best kept
    /// (its validation accuracy is the grid's best); without validation photos, refused.
    @Test func thePenaltyIsChosenOnTheValidationPhotos() throws {
        let subset = try Subset(classes: ["hat", "shoes", "skirt"], count: 6)
        var configuration = subset.configuration(output: "auto")
        configuration.searchesL2 = true
        let report = try ClassifierTrainer.train(configuration)
        #expect(report.l2Grid.count == 7)
        #expect(report.l2Grid.map(\.l2) == [10, 3, 1, 0.3, 0.1, 0.03, 0.01].map { 1 / ($0 * 12) })
        let best = try #require(report.l2Grid.map(\.validationAccuracy).max())
        #expect(report.l2Grid.contains { $0.l2 == report.l2Strength && $0.validationAccuracy == best })
        #expect(report.validationAccuracy == best, "the model is the chosen fit")
        var without = subset.configuration(output: "never")
        without.validation = .none
        without.searchesL2 = true
        #expect(
            throws: TasksError.invalidArgument(
                "--l2 auto chooses the penalty on validation photos, and there is none that could be read: give "
                    + "--validation DIR or --validation-split F with readable photos.")
        ) { try ClassifierTrainer.train(without) }
    }

    /// Copies of photos stay on one side of every split (seeds 0-7), and are listed; a copy filed
    /// under another class is a conflicting label, listed too.
    @Test func identicalPhotosStayOnOneSide() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 10)
        let hats = subset.url("data/hat")
        let photos = try FileManager.default.contentsOfDirectory(atPath: hats.path).sorted()
        for photo in photos.prefix(4) {
            try FileManager.default.copyItem(
                at: hats.appendingPathComponent(photo), to: hats.appendingPathComponent("copy-" + photo))
        }
        try FileManager.default.copyItem(
            at: hats.appendingPathComponent(photos[9]), to: subset.url("data/shoes/a-hat-" + photos[9]))
        let folder = try LabeledImageFolder(subset.data)
        let duplicates = PhotoDuplicates(folder.examples)
        #expect(duplicates.groups.count == 5 && duplicates.conflicting.count == 1)
        for seed in UInt64(0)..<8 {
            let (training, validation) = ValidationSplit.split(
                folder.examples, fraction: 0.3, seed: seed, digests: duplicates.digests)
            let digest = Dictionary(uniqueKeysWithValues: zip(folder.examples.map(\.input.path.description), duplicates.digests))
            let trained = Set(training.filter { $0.label == 0 }.compactMap { digest[$0.input.path.description] ?? nil })
            let validated = Set(validation.filter { $0.label == 0 }.compactMap { digest[$0.input.path.description] ?? nil })
            #expect(trained.isDisjoint(with: validated), "seed \(seed)")
            #expect(training.count + validation.count == 25)
        }
        var configuration = subset.configuration(output: "listed")
        configuration.validation = .split(0.3)
        let report = try ClassifierTrainer.fit(configuration).1
        #expect(report.identicalPhotos.count == 5 && report.identicalPhotos.allSatisfy { $0.count == 2 })
        #expect(
            report.identicalPhotos.first
                == [hats.appendingPathComponent(photos[0]).path, hats.appendingPathComponent("copy-" + photos[0]).path].sorted())
        #expect(
            report.conflictingLabels == [
                [hats.appendingPathComponent(photos[9]).path, subset.url("data/shoes/a-hat-" + photos[9]).path]
            ])
        #expect(report.sharedValidationPhotos <= 1, "only the conflicting copy can be on both sides")
    }

    /// A base whose scores carry a score calibration (`generated/…_calibrated.tflite`, its
    /// calibration file in the zip the cut does not keep): the new head's metadata keeps nothing
    /// of the base's output (a calibration of 1,001 scores is not these scores'), and the model
    /// classifies. Before, the export failed reading the base's calibration file.
    @Test func aCalibratedBaseGivesAnUncalibratedHead() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 3)
        var configuration = subset.configuration()
        configuration.base = TestData.model("generated/mobilenet_v1_0.25_224_quant_calibrated.tflite").path
        configuration.l2Strength = 0.01
        _ = try ClassifierTrainer.train(configuration)
        let model = subset.url("out/model.tflite")
        let output = try #require(
            try TFLiteModelFile(bytes: Data(contentsOf: model)).metadata?.subgraphs.first?.outputTensors.first)
        #expect(output.scoreCalibration == nil && output.scoreThresholding == nil, "\(output)")
        #expect(output.associatedFiles.map(\.name) == ["labels.txt"], "\(output)")
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = model.path
        let categories = try ImageClassifier(options: options).classify(
            image: MPImage(contentsOfFile: TestData.image("cat.jpg").path)
        )
        .classificationResult.classifications[0].categories
        #expect(Set(categories.map(\.categoryName)) == ["hat", "shoes"])
        #expect(abs(categories.map(\.score).reduce(0, +) - 1) < 1e-5, "softmax scores, not calibrated ones")
    }

    /// A FIFO named like a photo is skipped as not a regular file, not opened (hashing it for
    /// the duplicates waited on it for ever).
    @Test func aFIFOInAClassFolderIsSkipped() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 3)
        let fifo = subset.url("data/hat/fifo.jpg").path
        #expect(mkfifo(fifo, 0o644) == 0)
        var configuration = subset.configuration()
        configuration.validation = .none
        let report = try ClassifierTrainer.train(configuration)
        #expect(report.skipped.map(\.image) == [fifo] && report.trainingRows == 6, "\(report.skipped)")
    }

    /// A cache entry of the right size that a crash zeroed is not trusted: the features are
    /// computed again and the model is the one an uncached run makes.
    @Test func aDamagedCacheEntryIsComputedAgain() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 3)
        _ = try ClassifierTrainer.train(subset.configuration(output: "first"))
        let cache = subset.url("cache")
        let entries = try FileManager.default.subpathsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".f32") }
        for entry in entries {
            let url = cache.appendingPathComponent(entry)
            let size = try Data(contentsOf: url).count
            try Data(count: size).write(to: url)
        }
        _ = try ClassifierTrainer.train(subset.configuration(output: "second"))
        #expect(try Data(contentsOf: subset.url("second/model.tflite")) == Data(contentsOf: subset.url("first/model.tflite")))
    }

    /// A class folder that is a symbolic link to a folder is a class (a data set assembled from
    /// others); a link to a folder inside a class folder is still not followed.
    @Test func aLinkedClassFolderIsAClass() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 2)
        let elsewhere = subset.root.appendingPathComponent("elsewhere/skirt")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestData.image("cat.jpg"), to: elsewhere.appendingPathComponent("cat.jpg"))
        try FileManager.default.createSymbolicLink(at: subset.url("data/skirt"), withDestinationURL: elsewhere)
        try FileManager.default.createSymbolicLink(at: subset.url("data/hat/more"), withDestinationURL: elsewhere)
        let folder = try LabeledImageFolder(subset.data)
        #expect(folder.classes == ["hat", "shoes", "skirt"])
        #expect(folder.countsByClass == [2, 2, 1], "hat/more is not followed")
        #expect(folder.ignored.isEmpty, "\(folder.ignored)")
    }

    @Test func foldersThatCannotBeClassesOrOutputs() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 2)
        // A hidden folder and macOS's resource folder are no classes.
        for name in [".git", "__MACOSX"] {
            let folder = subset.root.appendingPathComponent("data/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestData.image("cat.jpg"), to: folder.appendingPathComponent("cat.jpg"))
        }
        // Nor are the copies Jupyter, file browsers and NAS boxes leave inside a class folder photos of it.
        for name in ["hat/.ipynb_checkpoints", "shoes/deep/@eaDir", "shoes/.thumbnails"] {
            let folder = subset.root.appendingPathComponent("data/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestData.image("cat.jpg"), to: folder.appendingPathComponent("cat.jpg"))
        }
        let folder = try LabeledImageFolder(subset.data)
        #expect(folder.classes == ["hat", "shoes"])
        #expect(folder.countsByClass == [2, 2], "no photo of a skipped folder is counted")
        #expect(folder.ignored.isEmpty)
        let skipped = [".git", "__MACOSX", "hat/.ipynb_checkpoints", "shoes/.thumbnails", "shoes/deep/@eaDir"]
        #expect(folder.skippedFolders.map(\.description) == skipped.map { subset.url("data/\($0)").path })
        var split = subset.configuration(output: "listed")
        split.validation = .none
        #expect(try ClassifierTrainer.fit(split).1.skippedFolders == skipped.map { subset.url("data/\($0)").path })
        // The output inside the photos' folder would become a class.
        let inside = subset.configuration(output: "data/model")
        #expect(
            throws: TasksError.invalidArgument(
                "The output folder is inside the photos' folder \(subset.data.description); it would be read as a class.",
                subject: .file(subset.url("data/model").path))
        ) {
            try ClassifierTrainer.train(inside)
        }
        // A class none of whose photos can be read.
        let broken = subset.root.appendingPathComponent("data/broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        try Data("not a photo".utf8).write(to: broken.appendingPathComponent("a.jpg"))
        var configuration = subset.configuration(output: "never")
        configuration.validation = .none
        #expect(
            throws: TasksError.invalidArgument(
                "No training photo of the class 'broken' could be read (see the photos skipped above); a class needs at least one.",
                subject: .file(subset.data.description))
        ) {
            try ClassifierTrainer.train(configuration)
        }
    }

    /// Validation photos that are training files (here: the same folder) are counted, and an
    /// interrupted run's old staging folder beside the output is removed (a recent one is kept:
    /// it may be another run's).
    @Test func sharedValidationPhotosAndStaleStaging() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 3)
        let old = subset.url(".out.staging-1-a"), recent = subset.url(".out.staging-2-b")
        for folder in [old, recent] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: old.path)
        var configuration = subset.configuration()
        configuration.validation = .folder(subset.data)
        let report = try ClassifierTrainer.train(configuration)
        #expect(report.sharedValidationPhotos == 6 && report.validationCount == 6)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: recent.path))
    }

    /// Copies of training photos in the validation folder are counted too; other photos are not.
    @Test func copiedValidationPhotosAreShared() throws {
        let subset = try Subset(classes: ["hat", "shoes"], count: 3)
        let validation = subset.url("validation")
        for name in ["hat", "shoes"] {
            let folder = validation.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = TestData.url("datasets/clothing-small/train/\(name)")
            let photos = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted()
            // The first photo copied (a training photo), the fifth not in the training subset.
            for photo in [photos[0], photos[4]] {
                try FileManager.default.copyItem(
                    at: source.appendingPathComponent(photo), to: folder.appendingPathComponent(photo))
            }
        }
        var configuration = subset.configuration()
        configuration.validation = .folder(FileSystemPath(validation.path))
        let report = try ClassifierTrainer.train(configuration)
        #expect(report.sharedValidationPhotos == 2 && report.validationCount == 4, "\(report)")
    }
}
