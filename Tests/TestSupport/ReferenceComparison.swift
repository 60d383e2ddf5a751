import Testing

/// What a comparison with MediaPipe's answers reads of a category: ours (`ResultCategory`, a
/// line of the command-line tool's JSON) or MediaPipe's (`ExpectedCategory`).
public protocol ScoredCategory {
    var index: Int { get }
    var score: Float { get }
    var categoryName: String? { get }
    var displayName: String? { get }
}

/// A category as the MediaPipe reference files (`testdata/expected`, `Tests/Reference`) record it.
public struct ExpectedCategory: ScoredCategory, Decodable, Sendable {
    public let index: Int
    public let score: Float
    public let categoryName: String?
    public let displayName: String?

    enum CodingKeys: String, CodingKey {
        case index, score
        case categoryName = "category_name"
        case displayName = "display_name"
    }
}

/// Compares our categories (all of them, unfiltered by max results) with MediaPipe's top list,
/// as `testdata/README.md` defines a faithful answer: every expected category is present with
/// a score within `tolerance` and the same names; wherever two neighbouring expected scores
/// differ by more than `tolerance`, our order agrees; and nothing we rank inside the expected
/// list's length scores clearly above its last score without being in it.
public func expectMatchesReference(
    _ actual: [some ScoredCategory], _ expected: [ExpectedCategory], tolerance: Float, _ context: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let position = Dictionary(actual.enumerated().map { ($1.index, $0) }, uniquingKeysWith: { first, _ in first })
    for category in expected {
        guard let rank = position[category.index] else {
            Issue.record(
                "\(context): category \(category.index) (\(category.categoryName ?? "-")) missing", sourceLocation: sourceLocation
            )
            continue
        }
        let ours = actual[rank]
        #expect(
            abs(ours.score - category.score) <= tolerance,
            "\(context): category \(category.index) score \(ours.score), MediaPipe \(category.score)",
            sourceLocation: sourceLocation)
        #expect(
            ours.categoryName == category.categoryName, "\(context): category \(category.index) name",
            sourceLocation: sourceLocation)
        #expect(
            ours.displayName == category.displayName, "\(context): category \(category.index) display name",
            sourceLocation: sourceLocation)
    }
    for (higher, lower) in zip(expected, expected.dropFirst()) where higher.score - lower.score > tolerance {
        if let a = position[higher.index], let b = position[lower.index] {
            #expect(a < b, "\(context): \(higher.index) should rank above \(lower.index)", sourceLocation: sourceLocation)
        }
    }
    let expectedIndices = Set(expected.map(\.index))
    if let floor = expected.last?.score {
        for extra in actual.prefix(expected.count) where !expectedIndices.contains(extra.index) {
            #expect(
                extra.score <= floor + tolerance,
                "\(context): unexpected category \(extra.index) with score \(extra.score) above MediaPipe's list",
                sourceLocation: sourceLocation)
        }
    }
}
