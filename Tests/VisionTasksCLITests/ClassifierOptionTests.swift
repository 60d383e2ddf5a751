import Foundation
import TestSupport
import Testing

/// The classifier options on the command line, checked against MediaPipe's answers.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ClassifierOptionTests {
    /// Runs `classify --format json` on one image and returns its categories (first head).
    private func categories(
        model: String = Fixture.quantModel, _ options: [String], image: String = Fixture.burger,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [ImageOutcome.Category] {
        let run = try await VisionTasksTool.run(
            ["classify", "--model", model, "--format", "json"] + options + [image],
            sourceLocation: sourceLocation)
        #expect(run.status == 0, "\(run)", sourceLocation: sourceLocation)
        let outcomes = try run.jsonOutcomes(sourceLocation: sourceLocation)
        try #require(outcomes.count == 1, "\(run)", sourceLocation: sourceLocation)
        #expect(outcomes[0].error == nil, "\(run)", sourceLocation: sourceLocation)
        return outcomes[0].categories
    }

    @Test func allowKeepsOnlyTheNamedCategories() async throws {
        let categories = try await categories(["--allow", "cheeseburger", "--allow", "bagel"])
        #expect(categories.map(\.categoryName) == ["cheeseburger", "bagel"])
        #expect(categories.map(\.index) == [934, 932])
    }

    @Test func denyDropsTheNamedCategory() async throws {
        let categories = try await categories(["--deny", "cheeseburger", "--max-results", "-1"])
        #expect(categories.count == 1000, "1001 labels less one")
        #expect(!categories.contains { $0.categoryName == "cheeseburger" || $0.index == 934 })
        #expect(categories.allSatisfy { $0.score < 0.5 }, "only cheeseburger scores high on burger.jpg")
    }

    @Test func scoreThresholdLeavesOnlyCheeseburger() async throws {
        let categories = try await categories(["--score-threshold", "0.5", "--max-results", "-1"])
        #expect(categories.map(\.index) == [934])
        #expect(categories.map(\.categoryName) == ["cheeseburger"])
    }

    /// Display names by locale (expected/mediapipe_generated_models.json): Spanish for "es",
    /// English by default, none for a locale without a label file.
    @Test(arguments: [
        (["--locale", "es"], Optional("hamburguesa con queso")),
        ([], Optional("cheeseburger")),
        (["--locale", "fr"], nil),
    ])
    func localeChoosesTheDisplayNames(options: [String], displayName: String?) async throws {
        let categories = try await categories(model: Fixture.localizedModel, options)
        let top = try #require(categories.first)
        #expect(top.index == 934)
        #expect(top.categoryName == "/m/00934")
        #expect(top.displayName == displayName)
    }

    /// `--roi` is x,y,width,height: MediaPipe's left/top/right/bottom 0.45/0.3075/0.614/0.7345
    /// around the soccer ball of multi_objects.jpg (expected/mediapipe_roi_rotation.json).
    @Test func regionOfInterestFindsTheSoccerBall() async throws {
        let whole = try await categories(model: Fixture.floatModel, [], image: Fixture.multiObjects)
        #expect(whole.first?.index != 806, "the whole picture is not mainly a soccer ball")
        let region = try await categories(
            model: Fixture.floatModel, ["--roi", "0.45,0.3075,0.164,0.427"], image: Fixture.multiObjects)
        #expect(region.first?.index == 806)
        #expect(region.first?.categoryName == "soccer ball")
    }

    @Test func rotationTurnsTheBurgerUpright() async throws {
        let stored = try await categories([], image: Fixture.burgerRotated)
        #expect(stored.first?.index != 934, "upside down, MediaPipe sees a hot pot")
        let rotated = try await categories(["--rotation", "180"], image: Fixture.burgerRotated)
        #expect(rotated.first?.index == 934)
        #expect(rotated.first?.categoryName == "cheeseburger")
    }

    @Test func threadCountDoesNotChangeTheResult() async throws {
        let options = ["--max-results", "-1"]
        for model in [Fixture.quantModel, Fixture.floatModel] {
            let one = try await categories(model: model, options + ["--threads", "1"], image: Fixture.multiObjects)
            let two = try await categories(model: model, options + ["--threads", "2"], image: Fixture.multiObjects)
            #expect(one.count == 1001)
            #expect(one == two, "\(model)")
        }
    }

    /// One case of expected/mediapipe_roi_rotation.json.
    struct RegionCase: Decodable, Sendable, CustomTestStringConvertible {
        var model = ""
        let image: String
        /// MediaPipe's RectF: left, top, right, bottom, normalized.
        let roi: [Double]?
        let rotationDegrees: Int
        let categories: [ExpectedCategory]

        enum CodingKeys: String, CodingKey {
            case image, roi, categories, rotationDegrees = "rotation_degrees"
        }

        /// The options that ask for this case: `--roi` takes x,y,width,height.
        var options: [String] {
            var options = ["--rotation", String(rotationDegrees)]
            if let roi {
                options += [
                    "--roi", [roi[0], roi[1], roi[2] - roi[0], roi[3] - roi[1]].map { String($0) }.joined(separator: ","),
                ]
            }
            return options
        }

        var testDescription: String { "\(model) \(image) \(options.joined(separator: " "))" }
    }

    static let regionCases: [RegionCase] = {
        guard TestData.isAvailable, let data = try? TestData.bytes("expected/mediapipe_roi_rotation.json"),
            let byModel = try? JSONDecoder().decode([String: [RegionCase]].self, from: data)
        else { return [] }
        return byModel.keys.sorted().flatMap { model in
            byModel[model]!.map { item in
                var item = item
                item.model = model
                return item
            }
        }
    }()

    @Test func everyRegionCaseIsLoaded() {
        #expect(Self.regionCases.count == 18, "9 cases for each of the two models")
    }

    /// Every region/rotation case MediaPipe answered, through the command line: the same categories
    /// with scores within the JPEG tolerance, in the same order wherever MediaPipe's scores differ
    /// by more than it (the testdata README's definition of a faithful answer).
    @Test(arguments: regionCases)
    func regionAndRotationMatchMediaPipe(_ item: RegionCase) async throws {
        let categories = try await categories(
            model: TestData.model(item.model).path, item.options + ["--max-results", "-1"],
            image: Fixture.image(item.image))
        expectMatchesReference(
            categories, item.categories, tolerance: Fixture.jpegTolerance(model: item.model), item.testDescription)
    }
}
