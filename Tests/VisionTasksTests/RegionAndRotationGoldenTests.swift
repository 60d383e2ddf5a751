import Foundation
import TestSupport
import Testing

@testable import VisionTasks

/// One case of `expected/mediapipe_roi_rotation.json`.
private struct RegionCase: Decodable {
    let image: String
    /// MediaPipe's RectF: left, top, right, bottom, normalized.
    let roi: [Double]?
    /// Clockwise, a multiple of 90.
    let rotationDegrees: Int
    let categories: [ExpectedCategory]

    enum CodingKeys: String, CodingKey {
        case image, roi, categories
        case rotationDegrees = "rotation_degrees"
    }

    /// The RectF as the CGRect our API takes (width = right − left).
    var region: CGRect {
        guard let roi else { return .zero }
        return CGRect(x: roi[0], y: roi[1], width: roi[2] - roi[0], height: roi[3] - roi[1])
    }

    /// MediaPipe iOS's orientation for a rotation: Right = 90° clockwise, Down = 180°, Left = 270°.
    var orientation: ImageOrientation {
        [ImageOrientation.up, .right, .down, .left][((rotationDegrees / 90) % 4 + 4) % 4]
    }
}

@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct RegionAndRotationGoldenTests {
    private static let cases =
        TestData.isAvailable
        ? try? VisionTasksTests.reference("mediapipe_roi_rotation.json", as: [String: [RegionCase]].self) : nil

    private static let samePixels = try? samePixelsReference("roi_rotation", as: [String: [RegionCase]].self)

    static var models: [String] { (cases?.keys).map { $0.sorted() } ?? [] }

    @Test(arguments: models)
    func matchesMediaPipeOnSamePixels(model: String) throws {
        let cases = try #require(Self.samePixels?[model])
        #expect(cases.count == Self.cases?[model]?.count)
        try compare(model: model, cases: cases) { _ in samePixelsTolerance }
    }

    @Test(arguments: models)
    func matchesMediaPipeDecodingFiles(model: String) throws {
        let cases = try #require(Self.cases?[model])
        #expect(cases.count >= 9)
        try compare(model: model, cases: cases) { image in try fileDecodingTolerance(model: model, image: image) }
    }

    private func compare(model: String, cases: [RegionCase], tolerance: (String) throws -> Float) throws {
        let classifier = try fullClassifier(model)
        for item in cases {
            let tolerance = try tolerance(item.image)
            let image = try MPImage(contentsOf: TestData.image(item.image), orientation: item.orientation)
            let result = try classifier.classify(image: image, regionOfInterest: item.region)
            let context = "\(model) \(item.image) roi \(item.roi ?? []) rotation \(item.rotationDegrees)"
            expectMatchesReference(
                result.classificationResult.classifications[0].categories, item.categories,
                tolerance: tolerance, context)
        }
    }
}
