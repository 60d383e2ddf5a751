import Foundation
import ImageLabeling
import ImageTasks
import ModelCache
import ModelDownloads
import ServedModels
import TasksCommon
import TestSupport
import Testing
import VisionTasks

/// The served-model adapters on their own (`ServedClassifier`, `ServedEmbedder`,
/// `ServedLabeler`): their kind and output, the requests' narrowing by the core's rules against
/// the library's own answers, and the parameters each refuses; and the catalog that loads them.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ServedTaskTests {
    static let mobilenet = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path
    static let embedder = TestData.model("mobilenet_v2_035_96_embedder_with_metadata.tflite").path
    static let burger = TestData.image("burger.jpg")

    static func parameters(_ configure: (inout RequestParameters) -> Void) -> RequestParameters {
        var parameters = RequestParameters()
        configure(&parameters)
        return parameters
    }

    /// The first head's (index, name) of a served record.
    static func categories(_ served: ServedImage, key: String = "classifications") throws -> [[String: Any]] {
        let record = try #require(try JSONSerialization.jsonObject(with: Data(served.record.utf8)) as? [String: Any])
        if key == "labels" { return try #require(record["labels"] as? [[String: Any]]) }
        return try #require((record[key] as? [[String: Any]])?.first?["categories"] as? [[String: Any]])
    }

    @Test func aClassifierNarrowsAsTheClassifierOptionsDo() throws {
        let served = try ServedClassifier(path: Self.mobilenet, threads: 1, locale: "en")
        #expect(served.kind == .classifier && served.kind.verb == "classify" && served.output == .records)
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = Self.mobilenet
        options.maxResults = 2
        options.categoryDenylist = ["cheeseburger"]
        let library = try ImageClassifier(options: options).classify(image: MPImage(contentsOf: Self.burger))
        let expected = library.classificationResult.classifications[0].categories
        let image = try served.serve(
            Data(contentsOf: Self.burger), name: "burger.jpg",
            parameters: Self.parameters {
                $0.maxResults = 2
                $0.categoryDenylist = ["cheeseburger"]
            })
        #expect(image.ranked == expected.map { RankedCategory(score: $0.score, index: $0.index, label: $0.categoryName) })
        #expect(try Self.categories(image).map { $0["index"] as? Int } == expected.map(\.index))
        #expect(!expected.contains { $0.categoryName == "cheeseburger" } && expected.count == 2)
        // Five by default, as `classify`'s --max-results.
        let defaults = try served.serve(Data(contentsOf: Self.burger), name: "b", parameters: RequestParameters())
        #expect(defaults.ranked.count == 5 && defaults.ranked.first?.label == "cheeseburger")
    }

    @Test func aClassifiersAllowlistMatchingNothingIsTheCoresError() throws {
        let served = try ServedClassifier(path: Self.mobilenet, threads: 1, locale: "en")
        let error = #expect(throws: TasksError.self) {
            try served.serve(
                Data(contentsOf: Self.burger), name: "b", parameters: Self.parameters { $0.categoryAllowlist = ["unicorn"] })
        }
        #expect(error?.code == .invalidArgumentError)
        #expect(
            error?.message == "None of the names in `category_allowlist` (unicorn) is a category name of the model, "
                + "so every category would be dropped.")
        #expect(served.problem(with: Self.parameters { $0.displayNamesLocale = "en" }) == nil)
        #expect(
            served.problem(with: Self.parameters { $0.displayNamesLocale = "fr" })
                == "Parameter 'display_names_locale' is 'fr', but this server loaded display names for 'en' (serve --locale).")
    }

    @Test func anEmbedderGivesTheLibrarysVectorAndRefusesClassificationParameters() throws {
        let served = try ServedEmbedder(path: Self.embedder, threads: 1, l2Normalize: false, quantize: false)
        #expect(served.kind == .embedder && served.kind.verb == "embed")
        #expect(served.output == ServedOutput(name: "embedding", datatype: "FP32", width: 1280))
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = Self.embedder
        let library = try ImageEmbedder(options: options).embed(image: MPImage(contentsOf: Self.burger))
        let image = try served.serve(Data(contentsOf: Self.burger), name: "b", parameters: RequestParameters())
        #expect(image.values == .float32(library.embeddingResult.embeddings[0].floatEmbedding ?? []))
        #expect(
            served.problem(with: Self.parameters { $0.scoreThreshold = 0.5 })
                == "An embedder takes no classification parameters (max_results, score_threshold, category lists, locale).")
        #expect(try served.videoClassifier() == nil && served.summary()?.outputs.first?.shape == [1, 1280])
    }

    @Test func aLabelerNarrowsWithMLKitsDefaults() throws {
        let folder = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: TestData.model("automl_labeler_model.tflite"), to: folder.appendingPathComponent("model.tflite"))
        try Data("daisy\ndandelion\nroses\nsunflowers\ntulips\n".utf8).write(to: folder.appendingPathComponent("dict.txt"))
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data(#"{"modelFile": "model.tflite", "labelsFile": "dict.txt", "modelType": "IMAGE_LABELING"}"#.utf8)
            .write(to: manifest)
        let served = try ServedLabeler(manifest: manifest.path)
        #expect(served.kind == .labeler && served.kind.verb == "classify")
        let options = AutoMLImageLabelerOptions(localModel: AutoMLImageLabelerLocalModel(manifestPath: manifest.path))
        let expected = try ImageLabeler(options: options).results(in: VisionImage(contentsOf: Self.burger))
        let photo = try Data(contentsOf: Self.burger)
        let image = try served.serve(photo, name: "b", parameters: RequestParameters())
        #expect(image.ranked == expected.map { RankedCategory(score: $0.confidence, index: $0.index, label: $0.text) })
        #expect(expected.map(\.text) == ["roses"], "only roses reaches ML Kit's 0.5 on burger.jpg")
        let every = try served.serve(photo, name: "b", parameters: Self.parameters { $0.scoreThreshold = 0 })
        #expect(every.ranked.count == 5)
        let denied = try served.serve(
            photo, name: "b",
            parameters: Self.parameters {
                $0.scoreThreshold = 0
                $0.categoryDenylist = ["roses"]
            })
        #expect(denied.ranked.map(\.label) == every.ranked.map(\.label).filter { $0 != "roses" })
        #expect(try Self.categories(denied, key: "labels").count == 4)
        #expect(
            served.problem(with: Self.parameters { $0.displayNamesLocale = "en" })
                == "Parameter 'display_names_locale' ('en') does not apply to an AutoML labeler.")
    }

    @Test func theCatalogLoadsEachSpecAndNamesWhatFails() throws {
        let catalog = try ServingCatalog(
            [
                ServedModelSpec(name: "m", source: .model(path: Self.mobilenet), workers: 2),
                ServedModelSpec(name: "e", source: .model(path: Self.embedder), workers: 1),
                ServedModelSpec(name: "c", source: .model(path: Self.embedder), task: .classify, workers: 1),
            ], options: ServingCatalog.Options())
        #expect(catalog.names == ["m", "e", "c"])
        #expect(catalog.pools.map(\.kind) == [.classifier, .embedder, .classifier])
        #expect(catalog.pool(named: "m")?.version == "1" && catalog.pool(named: "x") == nil)
        let twice = #expect(throws: TasksError.self) {
            try ServingCatalog(
                [
                    ServedModelSpec(name: "m", source: .model(path: Self.mobilenet), workers: 1),
                    ServedModelSpec(name: "m", source: .model(path: Self.mobilenet), workers: 1),
                ], options: ServingCatalog.Options())
        }
        #expect(twice?.message == "The model name 'm' is given twice.")
        let cache = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        var options = ServingCatalog.Options()
        options.store = ModelStore(root: cache)
        let remote = #expect(throws: TasksError.self) {
            try ServingCatalog([ServedModelSpec(name: "r", source: .remote(name: "r"))], options: options)
        }
        #expect(remote?.code == .failedPreconditionError)
        #expect(
            remote?.message == "r: the remote model is not downloaded in \(cache.path): run `vision-tasks models download r`.")
    }
}
